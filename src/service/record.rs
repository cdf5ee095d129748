//! What the service stores per match, and the per-seat view it serves.

use serde::{Deserialize, Serialize};

use super::endings;
use super::seat_player::SeatPlayer;
use crate::rating::Rating;
use crate::rules::view::GameView;
use crate::rules::{Match, Seat, Side};

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A client holding the seat's token.
    #[default]
    Remote,
    /// A house bot played by the server.
    Bot,
}

/// A seat as stored: who plays it and the hash of its token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// Remote or bot.
    pub kind: SeatKind,
    /// The house bot's name (for bots, and for remote seats on a timeout).
    pub bot: String,
    /// A display name.
    pub name: Option<String>,
    /// SHA-256 of the seat token, hex (remote seats only).
    pub token_sha256: Option<String>,
    /// The player seated here, if any (its key may act for the seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<SeatPlayer>,
}

/// Everything stored for one match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// The match id.
    pub id: String,
    /// Increases by one per accepted action (bot and automatic deals included).
    pub version: u64,
    /// The game.
    pub game: Match,
    /// One entry per seat.
    pub seats: Vec<SeatRecord>,
    /// Deal every hand as soon as the previous one is scored.
    pub auto_deal: bool,
    /// The move clock, if any.
    pub move_timeout_ms: Option<u64>,
    /// What happens when the clock runs out.
    pub on_timeout: OnTimeout,
    /// When the seat to act must have acted (milliseconds since the Unix
    /// epoch), with a move clock.
    pub deadline_ms: Option<u64>,
    /// When the match was created (milliseconds since the Unix epoch).
    pub created_ms: u64,
    /// The number of the match's last event: counted as events are made,
    /// written with them in one commit. `None` in records stored before it
    /// was kept (loading asks the store then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seq: Option<u64>,
    /// Set for a rated match: its pool and every seat's rating as the
    /// match was created (what the other seats are rated against when it
    /// ends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<RatedMatch>,
    /// Stored in the layout of servers before the compact one (the whole
    /// record as JSON on every write): such a match plays on in it. Never
    /// stored itself.
    #[serde(skip)]
    pub legacy_layout: bool,
    /// Per seat, the moves in a row its house bot made for it on the move
    /// clock (`endings.rs`): derived from the moves, never in the setup.
    #[serde(default, skip_serializing_if = "endings::none_missed")]
    pub missed: [u8; 4],
}

/// What a rated match keeps for rating its players when it ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedMatch {
    /// The rated pool: the variant's name (`pairs`, `abarrotada`,
    /// `abarrotada3`).
    pub pool: String,
    /// Each seat's rating when the match was created (a house bot's is its
    /// fixed anchor).
    pub before: Vec<Rating>,
}

// The ratings are finite numbers, so equality is reflexive.
impl Eq for RatedMatch {}

/// What the server does when a seat's move clock runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// The seat's house bot acts for it (the default).
    #[default]
    Bot,
    /// The seat's side forfeits the hand.
    Forfeit,
}

/// A seat as every viewer sees it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatInfo {
    /// The seat number.
    pub seat: Seat,
    /// The side it scores for (its team in pairs, itself in abarrotada).
    pub team: Side,
    /// `remote` or `bot`.
    pub kind: SeatKind,
    /// The house bot that plays it (bots) or stands in on a timeout.
    pub bot: String,
    /// A display name.
    pub name: Option<String>,
    /// The player seated here (public profile fields), if any.
    pub player: Option<SeatPlayer>,
}

/// A match as one seat (or a spectator) sees it.
#[derive(Clone, Debug, Serialize)]
pub struct MatchView {
    /// The match id.
    pub match_id: String,
    /// Increases by one per accepted action; send it back as
    /// `expected_version` or `If-Match` to act only on this state.
    pub version: u64,
    /// The number of the match's last event at this version: read the
    /// events after it (`?after=`, `Last-Event-ID`) to follow on from here.
    pub last_seq: u64,
    /// Who sits where.
    pub seats: Vec<SeatInfo>,
    /// When the seat to act must have acted (RFC 3339), with a move clock.
    pub deadline: Option<String>,
    /// The game as the viewer may see it.
    #[serde(flatten)]
    pub game: GameView,
}

impl MatchRecord {
    /// The view of `viewer` (a seat, or `None` for a spectator).
    pub fn view(&self, viewer: Option<Seat>) -> MatchView {
        let table = self.game.table();
        MatchView {
            match_id: self.id.clone(),
            version: self.version,
            last_seq: self.last_seq.unwrap_or(0),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatInfo {
                    seat: i as Seat,
                    team: table.side(i as Seat),
                    kind: s.kind,
                    bot: s.bot.clone(),
                    name: s.name.clone(),
                    player: s.player.clone(),
                })
                .collect(),
            deadline: self.deadline_ms.map(super::clock::rfc3339),
            game: self.game.view(viewer),
        }
    }

    /// The seat to act and its registered player, when a registered
    /// player (not a house bot) is to act: who is told `your_turn`.
    pub fn player_to_act(&self) -> Option<(Seat, &SeatPlayer)> {
        let seat = self.game.turn()?;
        let player = self.seats.get(seat as usize)?.player.as_ref()?;
        (!player.is_house()).then_some((seat, player))
    }
}

#[cfg(test)]
impl MatchRecord {
    /// A match record for tests: `game` with seats of `kinds` (house bots
    /// `random`), a 20 ms move clock, rated (everyone at the default
    /// rating) when `rated`.
    pub fn sample(game: Match, kinds: &[SeatKind], rated: bool) -> MatchRecord {
        let seat = |&kind: &SeatKind| SeatRecord {
            kind,
            bot: "random".into(),
            name: None,
            token_sha256: None,
            player: None,
        };
        MatchRecord {
            id: "m".into(),
            version: 0,
            game,
            seats: kinds.iter().map(seat).collect(),
            auto_deal: true,
            move_timeout_ms: Some(20),
            on_timeout: OnTimeout::Bot,
            deadline_ms: None,
            created_ms: 0,
            last_seq: None,
            rated: rated.then(|| RatedMatch {
                pool: "test".into(),
                before: vec![Rating::default(); kinds.len()],
            }),
            legacy_layout: false,
            missed: [0; 4],
        }
    }
}
