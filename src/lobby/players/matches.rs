//! A player's matches: per registered player, two indexes of the lobby
//! store, its ongoing matches and its finished ones, each entry sorting
//! newest first (the match's creation time, counted down, then its id).
//!
//! A match is listed as ongoing when it starts (the `started` hook) and
//! moved to the finished list when it ends (the commit that ends it, and
//! again when the scheduler settles it, so that a match whose start was
//! never heard of is listed all the same). Both writes are idempotent.
//! Reading a page reads each listed match through the service, a pure
//! read: what a page shows is the match as stored now. The finished list
//! keeps a player's newest [`FINISHED_KEPT`]. House players have no list.

use super::super::Lobby;
use super::super::core::LobbyCore;
use crate::rules::{Phase, Seat};
use crate::service::{Error, MatchRecord};

/// The most matches one page lists.
pub const MAX_MATCHES_PAGE: usize = 100;

/// How many finished matches a player's list keeps: the newest.
pub const FINISHED_KEPT: usize = 500;

/// The index of `player`'s ongoing matches.
fn ongoing_index(player: &str) -> String {
    format!("player_matches:ongoing:{player}")
}

/// The index of `player`'s finished matches.
fn finished_index(player: &str) -> String {
    format!("player_matches:finished:{player}")
}

/// The index entry of `rec`: newest first as text.
fn entry(rec: &MatchRecord) -> String {
    format!("{:020}~{}", u64::MAX - rec.created_ms, rec.id)
}

/// Which of a player's matches a page lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchesFilter {
    /// The ongoing ones, then the finished ones.
    All,
    /// Only the ongoing ones.
    Ongoing,
    /// Only the finished ones.
    Finished,
}

/// One of a player's matches, as stored now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerMatch {
    /// The match id.
    pub match_id: String,
    /// The player's seat.
    pub seat: Seat,
    /// The variant's name.
    pub variant: String,
    /// Whether the match is rated.
    pub rated: bool,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_ms: u64,
    /// Its phase (`match_over` once it is over).
    pub phase: Phase,
    /// The seat to act; `None` once over.
    pub turn: Option<Seat>,
    /// Whether the player's seat is to act.
    pub your_turn: bool,
    /// The match version.
    pub version: u64,
    /// The number of the match's last event.
    pub last_seq: u64,
}

impl PlayerMatch {
    /// `rec` as player `player` at `seat` sees it in its list.
    fn of(rec: &MatchRecord, seat: Seat) -> PlayerMatch {
        let turn = rec.game.turn();
        let variant = serde_json::to_value(rec.game.rules.variant)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        PlayerMatch {
            match_id: rec.id.clone(),
            seat,
            variant,
            rated: rec.rated.is_some(),
            created_ms: rec.created_ms,
            phase: rec.game.phase(),
            turn,
            your_turn: turn == Some(seat),
            version: rec.version,
            last_seq: rec.last_seq.unwrap_or(0),
        }
    }
}

/// A page of a player's matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerMatchesPage {
    /// Ongoing matches first, then finished ones, each newest first.
    pub matches: Vec<PlayerMatch>,
    /// Where the next page starts; `None` once the list is done.
    pub next: Option<String>,
}

impl LobbyCore {
    /// Lists `rec` among each of its registered players' ongoing matches,
    /// or, once it is over, among their finished ones (and no longer among
    /// the ongoing).
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub(in crate::lobby) async fn list_match(&self, rec: &MatchRecord) -> Result<(), Error> {
        let over = rec.game.phase() == Phase::MatchOver;
        let entry = entry(rec);
        let players = rec.seats.iter().filter_map(|s| s.player.as_ref());
        for p in players.filter(|p| !p.is_house()) {
            if over {
                self.store()
                    .index_add(&finished_index(&p.id), &entry)
                    .await?;
                self.store()
                    .index_remove(&ongoing_index(&p.id), &entry)
                    .await?;
                self.store()
                    .index_keep(&finished_index(&p.id), FINISHED_KEPT)
                    .await?;
            } else {
                self.store()
                    .index_add(&ongoing_index(&p.id), &entry)
                    .await?;
            }
        }
        Ok(())
    }
}

/// Where a page starts: the list (ongoing or finished) and the entry after
/// which it goes on.
fn parse_cursor(
    cursor: Option<&str>,
    filter: MatchesFilter,
) -> Result<(bool, Option<String>), Error> {
    let bad = || Error::InvalidRequest("this is not a cursor of this list".into());
    let Some(c) = cursor else {
        return Ok((filter == MatchesFilter::Finished, None));
    };
    let (finished, rest) = match c.split_at_checked(1) {
        Some(("o", rest)) if filter != MatchesFilter::Finished => (false, rest),
        Some(("f", rest)) if filter != MatchesFilter::Ongoing => (true, rest),
        _ => return Err(bad()),
    };
    if rest.is_empty() || rest.len() > 100 || !rest.is_ascii() {
        return Err(bad());
    }
    Ok((finished, Some(rest.to_string())))
}

impl Lobby {
    /// A page of `player`'s matches: at most `limit`, from `cursor` on.
    ///
    /// # Errors
    /// `InvalidRequest` for a limit out of range or a bad cursor;
    /// `StoreUnavailable`.
    pub async fn player_matches(
        &self,
        player: &str,
        filter: MatchesFilter,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<PlayerMatchesPage, Error> {
        if limit == 0 || limit > MAX_MATCHES_PAGE {
            return Err(Error::InvalidRequest(format!(
                "limit is between 1 and {MAX_MATCHES_PAGE}"
            )));
        }
        let (mut finished, mut after) = parse_cursor(cursor, filter)?;
        let mut matches = Vec::new();
        loop {
            let index = if finished {
                finished_index(player)
            } else {
                ongoing_index(player)
            };
            let want = limit - matches.len();
            let entries = self
                .core()
                .store()
                .index_page(&index, after.as_deref(), want)
                .await?;
            for e in &entries {
                after = Some(e.clone());
                if let Some(m) = self.listed(player, e, finished).await? {
                    matches.push(m);
                }
            }
            if matches.len() == limit {
                let tag = if finished { "f" } else { "o" };
                let next = after.map(|a| format!("{tag}{a}"));
                return Ok(PlayerMatchesPage { matches, next });
            }
            if entries.len() < want {
                if finished || filter == MatchesFilter::Ongoing {
                    return Ok(PlayerMatchesPage {
                        matches,
                        next: None,
                    });
                }
                (finished, after) = (true, None);
            }
        }
    }

    /// The match of index entry `entry` as `player` sees it in its list;
    /// `None` for a match no longer stored, or over while listed as ongoing
    /// (the finished list has it).
    async fn listed(
        &self,
        player: &str,
        entry: &str,
        finished: bool,
    ) -> Result<Option<PlayerMatch>, Error> {
        let Some((_, id)) = entry.split_once('~') else {
            return Ok(None);
        };
        let rec = match self.service().record(id).await {
            Ok(rec) => rec,
            Err(Error::MatchNotFound) => return Ok(None),
            Err(e) => return Err(e),
        };
        let over = rec.game.phase() == Phase::MatchOver;
        let seat = rec
            .seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.id == player));
        Ok(match seat {
            Some(seat) if over == finished => Some(PlayerMatch::of(&rec, seat as Seat)),
            _ => None,
        })
    }
}
