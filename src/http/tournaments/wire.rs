//! The request and response types of tournaments, with their OpenAPI
//! schemas.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::http::challenges::wire::PlayerId;
use crate::http::players::wire::SeatPlayer;
use crate::lobby::tournaments::{
    self as t, Format, Partners, TournamentRecord, TournamentStatus, standings,
};
use crate::rules::{Rules, Variant};
use crate::service::rfc3339;

/// How a tournament is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FormatKind {
    /// `rounds` rounds, paired by score then rating, no repeat opponents
    /// where avoidable, byes from the bottom.
    Swiss,
    /// For `duration_s`, units re-paired as soon as they finish: 2 points a
    /// win, 1 a draw, doubled after two wins in a row.
    Arena,
    /// `rounds` rounds in which every table plays the same `boards` deals,
    /// each result scored against the others in the same direction.
    Duplicate,
}

/// How partnerships are made in the pairs game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PartnersKind {
    /// Drawn at the start from the tournament's seed (the odd one out with
    /// a house bot).
    #[default]
    Drawn,
    /// Each entrant names its partner; a partnership plays once both have
    /// entered naming each other.
    Fixed,
}

/// The body of `POST /v1/tournaments`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// Its name (1 to 64 characters).
    #[schema(min_length = 1, max_length = 64, example = "Dijous a la fresca")]
    pub name: String,
    /// `pairs`, `abarrotada` or `abarrotada3`.
    pub variant: Variant,
    /// `swiss`, `arena` or `duplicate`.
    pub format: FormatKind,
    /// Rounds of a Swiss or duplicate tournament (1 to 30; default 4).
    #[schema(minimum = 1, maximum = 30)]
    pub rounds: Option<u32>,
    /// Deals per duplicate round (1 to 32; default 4).
    #[schema(minimum = 1, maximum = 32)]
    pub boards: Option<u32>,
    /// How long an arena pairs new games (1 to 604,800 s; default 1,800).
    #[schema(minimum = 1, maximum = 604_800)]
    pub duration_s: Option<u64>,
    /// Seconds from now to the start (0 to 604,800; default 300). The
    /// maker may start it earlier (`POST /v1/tournaments/{id}/start`).
    #[schema(minimum = 0, maximum = 604_800)]
    pub starts_in_s: Option<u64>,
    /// Pairs game: `drawn` (default) or `fixed` partnerships.
    #[serde(default)]
    pub partners: PartnersKind,
    /// The rules of its matches (default: the variant's standard rules; a
    /// rated tournament takes no other). A duplicate round plays its
    /// boards to the end: its target, hand count, first dealer and
    /// shuffle are set by the tournament.
    pub rules: Option<Rules>,
    /// Rated matches (Swiss and arena; default false).
    #[serde(default)]
    pub rated: bool,
    /// Private: entered only with the code shown once to its maker.
    #[serde(default)]
    pub private: bool,
    /// Each match's move clock, 100 to 86,400,000 ms (default 30,000); a
    /// house bot acts for a seat whose clock runs out.
    #[schema(minimum = 100, maximum = 86_400_000)]
    pub move_timeout_ms: Option<u64>,
    /// The house bot (`random`, `easy`, `medium`, `hard`, `expert`, …) that
    /// completes partnerships and tables: with it a Swiss or duplicate
    /// tournament gives no byes, and an arena never keeps a unit waiting.
    #[schema(max_length = 32, pattern = "^[a-z0-9_-]+$")]
    pub fill_with: Option<String>,
    /// At most this many entrants (1 to 1,000; default 1,000).
    #[schema(minimum = 1, maximum = 1000)]
    pub max_entrants: Option<u32>,
}

impl CreateTournament {
    /// The lobby's request.
    pub fn into_new(self) -> t::NewTournament {
        let format = match self.format {
            FormatKind::Swiss => Format::Swiss {
                rounds: self.rounds.unwrap_or(4),
            },
            FormatKind::Arena => Format::Arena {
                duration_ms: self.duration_s.unwrap_or(1800).saturating_mul(1000),
            },
            FormatKind::Duplicate => Format::Duplicate {
                rounds: self.rounds.unwrap_or(4),
                boards: self.boards.unwrap_or(4),
            },
        };
        t::NewTournament {
            name: self.name,
            variant: self.variant,
            format,
            partners: match self.partners {
                PartnersKind::Drawn => Partners::Drawn,
                PartnersKind::Fixed => Partners::Fixed,
            },
            rules: self.rules,
            rated: self.rated,
            private: self.private,
            starts_in_s: self.starts_in_s.unwrap_or(300),
            move_timeout_ms: self.move_timeout_ms,
            fill_with: self.fill_with,
            max_entrants: self.max_entrants.map(|m| m as usize),
        }
    }
}

/// The body of `POST /v1/tournaments/{id}/entries`.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EnterTournament {
    /// Fixed partnerships: the partner, who enters naming this player.
    #[schema(value_type = Option<PlayerId>)]
    pub partner: Option<String>,
    /// A private tournament's code.
    #[schema(max_length = 64)]
    pub code: Option<String>,
}

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Taking entries until `starts_at`.
    Open,
    /// Playing.
    Running,
    /// Every result is in.
    Over,
    /// Too few entered to seat a table.
    Cancelled,
}

impl From<TournamentStatus> for Status {
    fn from(s: TournamentStatus) -> Status {
        match s {
            TournamentStatus::Open => Status::Open,
            TournamentStatus::Running => Status::Running,
            TournamentStatus::Over => Status::Over,
            TournamentStatus::Cancelled => Status::Cancelled,
        }
    }
}

/// An entry.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EntryView {
    /// The player.
    pub player: SeatPlayer,
    /// The partner it named (fixed partnerships).
    pub partner: Option<String>,
    /// Withdrawn: paired no more.
    pub withdrawn: bool,
    /// The unit it plays in, once formed.
    pub unit: Option<u32>,
}

/// A unit: a partnership (pairs game) or a single player.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct UnitView {
    /// Its number, what tables and standings name.
    pub unit: u32,
    /// Its players in seat order (house bots as `house-<level>`).
    pub players: Vec<SeatPlayer>,
    /// The mean rating of its entrants when they entered.
    pub rating: f64,
    /// Withdrawn: paired no more.
    pub withdrawn: bool,
    /// House bots added to complete the tables: never ranked.
    pub house: bool,
}

/// A line of the standings.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StandingView {
    /// 1 for the first; equal lines share a rank.
    pub rank: u32,
    /// The unit.
    pub unit: u32,
    /// Swiss: games won (½ a draw, 1 a bye); arena: points; duplicate: the
    /// mean percentage over the boards scored.
    pub score: f64,
    /// Swiss: Buchholz (the sum of the opponents' scores); arena: the
    /// current streak of wins; duplicate: the sum of the differences.
    pub tiebreak: f64,
    /// Match points won less those conceded (0 in duplicate).
    pub points_difference: f64,
    /// Games played (duplicate: boards scored).
    pub played: u32,
    /// Byes had.
    pub byes: u32,
}

/// A round at a glance.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RoundSummary {
    /// Its number (in an arena, the wave of pairings).
    pub number: u32,
    /// When it was paired (RFC 3339).
    pub started_at: String,
    /// Its tables.
    pub tables: u32,
    /// Its tables finished.
    pub finished: u32,
}

/// A tournament.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Tournament {
    /// Its id.
    #[schema(example = "t0a1b2c3d4e5f60718293a4b5")]
    pub id: String,
    /// Its name.
    pub name: String,
    /// Who made it.
    pub owner: SeatPlayer,
    /// The variant played.
    pub variant: Variant,
    /// How it is run.
    pub format: FormatKind,
    /// Rounds (Swiss and duplicate).
    pub rounds: Option<u32>,
    /// Deals per round (duplicate).
    pub boards: Option<u32>,
    /// How long new games are paired (arena), in seconds.
    pub duration_s: Option<u64>,
    /// How partnerships are made (pairs game).
    pub partners: PartnersKind,
    /// The rules of its matches.
    pub rules: Rules,
    /// Whether its matches are rated.
    pub rated: bool,
    /// Entered only with a code.
    pub private: bool,
    /// When it starts (RFC 3339).
    pub starts_at: String,
    /// When an arena stops pairing (RFC 3339).
    pub ends_at: Option<String>,
    /// When it ended (RFC 3339), once over or cancelled.
    pub ended_at: Option<String>,
    /// Each match's move clock.
    pub move_timeout_ms: u64,
    /// The house bot that completes partnerships and tables.
    pub fill_with: Option<String>,
    /// At most this many entrants.
    pub max_entrants: u32,
    /// Where it is.
    pub status: Status,
    /// SHA-256 of its seed (hex): every draw and board set derives from
    /// the seed, shown once it is over.
    pub seed_commitment: String,
    /// The seed, once over (64 hex digits).
    pub seed: Option<String>,
    /// The entries, in the order made.
    pub entries: Vec<EntryView>,
    /// The units, once formed.
    pub units: Vec<UnitView>,
    /// The standings, best first.
    pub standings: Vec<StandingView>,
    /// The rounds paired so far (details at `/rounds/{n}`).
    pub round_list: Vec<RoundSummary>,
}

/// The SHA-256 of the seed's bytes, in hex.
fn commitment(seed_hex: &str) -> String {
    let bytes = hex::decode(seed_hex).unwrap_or_default();
    hex::encode(Sha256::digest(bytes))
}

impl From<&TournamentRecord> for Tournament {
    fn from(r: &TournamentRecord) -> Tournament {
        let (format, rounds, boards, duration_s) = match r.format {
            Format::Swiss { rounds } => (FormatKind::Swiss, Some(rounds), None, None),
            Format::Arena { duration_ms } => {
                (FormatKind::Arena, None, None, Some(duration_ms / 1000))
            }
            Format::Duplicate { rounds, boards } => {
                (FormatKind::Duplicate, Some(rounds), Some(boards), None)
            }
        };
        let over = r.status == TournamentStatus::Over || r.status == TournamentStatus::Cancelled;
        Tournament {
            id: r.id.clone(),
            name: r.name.clone(),
            owner: r.owner.clone().into(),
            variant: r.variant,
            format,
            rounds,
            boards,
            duration_s,
            partners: match r.partners {
                Partners::Drawn => PartnersKind::Drawn,
                Partners::Fixed => PartnersKind::Fixed,
            },
            rules: r.rules.clone(),
            rated: r.rated,
            private: r.code_sha256.is_some(),
            starts_at: rfc3339(r.starts_ms),
            ends_at: match r.format {
                Format::Arena { duration_ms } => Some(rfc3339(r.starts_ms + duration_ms)),
                _ => None,
            },
            ended_at: r.ended_ms.map(rfc3339),
            move_timeout_ms: r.move_timeout_ms,
            fill_with: r.fill_with.clone(),
            max_entrants: r.max_entrants as u32,
            status: r.status.into(),
            seed_commitment: commitment(&r.seed),
            seed: over.then(|| r.seed.clone()),
            entries: r
                .entries
                .iter()
                .map(|e| EntryView {
                    player: e.player.clone().into(),
                    partner: e.partner.clone(),
                    withdrawn: e.withdrawn,
                    unit: e.unit.map(|u| u as u32),
                })
                .collect(),
            units: r
                .units
                .iter()
                .enumerate()
                .map(|(i, u)| UnitView {
                    unit: i as u32,
                    players: u.players.iter().cloned().map(Into::into).collect(),
                    rating: u.rating,
                    withdrawn: u.withdrawn,
                    house: u.house,
                })
                .collect(),
            standings: standings(r).into_iter().map(StandingView::from).collect(),
            round_list: r
                .rounds
                .iter()
                .map(|round| RoundSummary {
                    number: round.number,
                    started_at: rfc3339(round.started_ms),
                    tables: round.tables.len() as u32,
                    finished: round.tables.iter().filter(|t| t.result.is_some()).count() as u32,
                })
                .collect(),
        }
    }
}

impl From<t::Standing> for StandingView {
    fn from(s: t::Standing) -> StandingView {
        StandingView {
            rank: s.rank as u32,
            unit: s.unit as u32,
            score: s.score,
            tiebreak: s.tiebreak,
            points_difference: s.points_difference,
            played: s.played,
            byes: s.byes,
        }
    }
}

/// A tournament just made: the tournament, and a private one's code
/// (shown this once).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CreatedTournament {
    /// The tournament.
    pub tournament: Tournament,
    /// The code that enters a private tournament (12 hex digits).
    pub code: Option<String>,
}

/// A page of public tournaments.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentList {
    /// By start time.
    pub tournaments: Vec<Tournament>,
    /// The `after` of the next page; null at the end.
    pub next: Option<String>,
}
