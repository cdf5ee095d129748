//! Reads: a seat's view, its legal moves, event pages and the record.

use std::sync::Arc;
use std::time::Duration;

use super::record::{MatchRecord, MatchView};
use super::{Error, EventView, Service, events, input};
use crate::rules::view::HistoryView;
use crate::rules::{Action, Seat};

/// A seat's legal moves.
#[derive(Clone, Debug)]
pub struct LegalMoves {
    /// The match version these moves apply to.
    pub version: u64,
    /// The number of the match's last event at that version.
    pub last_seq: u64,
    /// The seat to act (null when the match is over).
    pub turn: Option<Seat>,
    /// The caller's legal actions (empty when it is not its turn).
    pub actions: Vec<Action>,
    /// The action the requested house bot would choose, if one was asked.
    pub hint: Option<Action>,
}

/// A page of events.
#[derive(Clone, Debug)]
pub struct EventsPage {
    /// The events after the requested number, oldest first.
    pub events: Vec<EventView>,
    /// The number of the last event of the match.
    pub last_seq: u64,
}

impl Service {
    /// The match as stored now. Reads never write: what is due (house
    /// bots, deals, clocks) is played by the scheduler.
    ///
    /// # Errors
    /// `MatchNotFound`; `StoreUnavailable`.
    pub async fn record(&self, id: &str) -> Result<Arc<MatchRecord>, Error> {
        self.load(id).await
    }

    /// The view of the token's seat, or the spectator view without a token.
    ///
    /// # Errors
    /// `MatchNotFound`, `Unauthorized` for a wrong token, `StoreUnavailable`.
    pub async fn view(&self, id: &str, token: Option<&str>) -> Result<MatchView, Error> {
        let rec = self.load(id).await?;
        let seat = self.caller_seat(&rec, token).await?;
        Ok(rec.view(seat))
    }

    /// The caller's legal actions, with an optional house-bot hint.
    ///
    /// # Errors
    /// `Unauthorized` without a valid token; `InvalidRequest` for an unknown bot.
    pub async fn legal_moves(
        &self,
        id: &str,
        token: Option<&str>,
        hint: Option<&str>,
    ) -> Result<LegalMoves, Error> {
        let rec = self.load(id).await?;
        let seat = self.require_caller(&rec, token).await?;
        self.legal_moves_of(rec, seat, hint).await
    }

    /// `seat`'s legal moves in `rec`, with an optional house-bot hint.
    pub(super) async fn legal_moves_of(
        &self,
        rec: Arc<MatchRecord>,
        seat: Seat,
        hint: Option<&str>,
    ) -> Result<LegalMoves, Error> {
        let actions = rec.game.legal_actions(seat);
        let (version, turn) = (rec.version, rec.game.turn());
        let last_seq = rec.last_seq.unwrap_or(0);
        let hint = match hint {
            None => None,
            Some(name) => {
                let bot = input::house_bot(name)?;
                if actions.is_empty() {
                    None
                } else {
                    Some(self.driver.hint(rec, seat, bot).await?)
                }
            }
        };
        Ok(LegalMoves {
            version,
            last_seq,
            turn,
            actions,
            hint,
        })
    }

    /// The events after `after`, waiting up to `wait_ms` for one.
    ///
    /// # Errors
    /// `MatchNotFound`, `Unauthorized` for a wrong token, `InvalidRequest`
    /// for limits or an `after` past the match's last event,
    /// `StoreUnavailable`.
    pub async fn events(
        &self,
        id: &str,
        token: Option<&str>,
        after: u64,
        wait_ms: u64,
        limit: usize,
    ) -> Result<EventsPage, Error> {
        if wait_ms > self.limits.max_wait_ms {
            return Err(Error::InvalidRequest(format!(
                "wait_ms is at most {}",
                self.limits.max_wait_ms
            )));
        }
        if limit == 0 || limit > self.limits.max_events_page {
            return Err(Error::InvalidRequest(format!(
                "limit is between 1 and {}",
                self.limits.max_events_page
            )));
        }
        let rec = self.load(id).await?;
        let seat = self.caller_seat(&rec, token).await?;
        // Nothing will ever come after an event the match never made.
        let last = match rec.last_seq {
            Some(last) => last,
            None => self.store.last_seq(id).await?,
        };
        if after > last {
            return Err(Error::InvalidRequest(format!(
                "there is no event {after} to resume after: the match's last event is {last}"
            )));
        }
        if !rec.legacy_layout {
            return self.replayed_events(id, seat, after, wait_ms, limit).await;
        }
        let mut raw = self.store.events_after(id, after, limit).await?;
        if raw.is_empty() && wait_ms > 0 {
            // Woken by the next commit: a client's, or the scheduler's
            // when a move clock runs out.
            self.store
                .wait_events(id, after, Duration::from_millis(wait_ms))
                .await?;
            raw = self.store.events_after(id, after, limit).await?;
        }
        let last_seq = match raw.last() {
            Some((seq, _)) => self.store.last_seq(id).await?.max(*seq),
            None => self.store.last_seq(id).await?,
        };
        let events = raw
            .iter()
            .map(|(seq, e)| events::redact(*seq, e, seat))
            .collect::<Result<_, _>>()?;
        Ok(EventsPage { events, last_seq })
    }

    /// The full record as the caller may see it.
    ///
    /// # Errors
    /// `MatchNotFound`, `Unauthorized` for a wrong token, `StoreUnavailable`.
    pub async fn history(&self, id: &str, token: Option<&str>) -> Result<HistoryView, Error> {
        let rec = self.load(id).await?;
        let seat = self.caller_seat(&rec, token).await?;
        Ok(rec.game.history_view(seat))
    }
}
