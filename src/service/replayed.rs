//! Event pages of a match in the compact layout: its events are rebuilt by
//! replaying its log (see [`compact`]), and a long poll waits for the next
//! log entry.

use std::time::Duration;

use super::compact::{self, Window};
use super::reads::EventsPage;
use super::{Error, Service, events};
use crate::rules::Seat;

impl Service {
    /// The events of `id` numbered above `after` as `seat` may see them, at
    /// most `limit`, waiting up to `wait_ms` for one.
    ///
    /// # Errors
    /// `MatchNotFound`, `StoreUnavailable`, `Internal` for a stored match
    /// that does not read back.
    pub(super) async fn replayed_events(
        &self,
        id: &str,
        seat: Option<Seat>,
        after: u64,
        wait_ms: u64,
        limit: usize,
    ) -> Result<EventsPage, Error> {
        let (mut window, mut last_seq, entries) = self.event_window(id, after, limit).await?;
        if window.events.is_empty() && wait_ms > 0 {
            // Woken by the next commit: a client's, or the scheduler's
            // when a move clock runs out.
            self.store
                .wait_events(id, entries, Duration::from_millis(wait_ms))
                .await?;
            (window, last_seq, _) = self.event_window(id, after, limit).await?;
        }
        let events = window
            .events
            .iter()
            .map(|(seq, e)| events::redact_stored(*seq, e, seat))
            .collect::<Result<_, _>>()?;
        Ok(EventsPage { events, last_seq })
    }

    /// The events of the window, the number of the last event and the
    /// number of log entries, from one read of the match.
    async fn event_window(
        &self,
        id: &str,
        after: u64,
        limit: usize,
    ) -> Result<(Window, u64, u64), Error> {
        let snap = self.snapshot(id).await?;
        let mut window = Window {
            after,
            limit,
            events: Vec::new(),
        };
        let replayed = compact::replay(&snap.state, &snap.log, None, Some(&mut window))?;
        Ok((window, replayed.last_seq, replayed.entries))
    }
}
