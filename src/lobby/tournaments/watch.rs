//! When an instance reads a running tournament's matches: each
//! housekeeping tick reads the record of every tournament not yet over,
//! but the matches of its unfinished tables only when one of them may
//! have ended, so that a tick that changes nothing costs one read a
//! tournament, not one a table.
//!
//! A match may have ended when this instance saw it end (the match
//! service's hooks tell the lobby of every commit this instance stored
//! and of every finished match its scheduler settles: [`Watch::match_over`]
//! notes the tournament), or when the instance has not read the
//! tournament's matches for [`READ_EVERY_MS`] (the ends other instances
//! saw, or that an instance killed after the commit never told anyone
//! of), or never yet (a fresh instance reads at its first tick). Nothing
//! here is stored: the notes are this process's, each instance keeps its
//! own, and an instance that knows nothing reads as often as the
//! interval says, so every round is finished by whichever instances are
//! left, on any store.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};

use super::record::tournament_of;

/// The longest an instance goes without reading the matches of a running
/// tournament's unfinished tables.
pub const READ_EVERY_MS: u64 = 5_000;

/// This instance's notes on its running tournaments (see the module's
/// notes).
#[derive(Default)]
pub struct Watch(Mutex<Notes>);

#[derive(Default)]
struct Notes {
    /// Tournaments a match of which this instance saw end since it last
    /// read their matches.
    ended: HashSet<String>,
    /// When this instance last read each tournament's matches.
    read_ms: HashMap<String, u64>,
}

impl Watch {
    fn notes(&self) -> std::sync::MutexGuard<'_, Notes> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Match `match_id` is over: if it is a tournament's, that tournament
    /// is read at the next tick.
    pub fn match_over(&self, match_id: &str) {
        if let Some(t) = tournament_of(match_id) {
            self.notes().ended.insert(t.to_string());
        }
    }

    /// Whether to read tournament `id`'s matches at `now` (noted as read
    /// then if so): a match of it was seen ending, or they were last read
    /// [`READ_EVERY_MS`] ago or never.
    pub(super) fn read_due(&self, id: &str, now: u64) -> bool {
        let mut notes = self.notes();
        let ended = notes.ended.remove(id);
        let due = ended
            || notes
                .read_ms
                .get(id)
                .is_none_or(|&at| now >= at.saturating_add(READ_EVERY_MS));
        if due {
            notes.read_ms.insert(id.to_string(), now);
        }
        due
    }

    /// The read of tournament `id`'s matches failed: read them at the
    /// next tick.
    pub(super) fn read_failed(&self, id: &str) {
        self.notes().read_ms.remove(id);
    }

    /// Forgets every tournament but those of `active` (those over, or
    /// ended by another instance, or never a tournament).
    pub(super) fn keep_only(&self, active: &HashSet<String>) {
        let mut notes = self.notes();
        notes.ended.retain(|t| active.contains(t));
        notes.read_ms.retain(|t, _| active.contains(t));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "t0123456789abcdef01234567";

    #[test]
    fn a_tournament_is_read_at_once_then_every_interval_or_when_a_match_ends() {
        let w = Watch::default();
        assert!(w.read_due(T, 1_000), "never read here");
        assert!(!w.read_due(T, 1_001));
        assert!(!w.read_due(T, 1_000 + READ_EVERY_MS - 1));
        assert!(w.read_due(T, 1_000 + READ_EVERY_MS), "the interval");
        w.match_over(&format!("{T}-00112233aabbccdd"));
        assert!(w.read_due(T, 1_000 + READ_EVERY_MS + 1), "an end seen");
        assert!(!w.read_due(T, 1_000 + READ_EVERY_MS + 2), "taken once");
        w.read_failed(T);
        assert!(w.read_due(T, 1_000 + READ_EVERY_MS + 3), "a failed read");
    }

    #[test]
    fn only_tournament_matches_are_noted_and_only_active_ones_kept() {
        let w = Watch::default();
        w.match_over("0123456789abcdef01234567");
        w.match_over(&format!("{T}-00112233aabbccdd"));
        w.match_over("t999-00112233aabbccdd");
        assert_eq!(w.notes().ended.len(), 1, "one tournament's match");
        w.keep_only(&HashSet::from([T.to_string()]));
        assert_eq!(w.notes().ended.len(), 1);
        assert!(w.read_due(T, 0));
        w.keep_only(&HashSet::new());
        let notes = w.notes();
        assert!(notes.read_ms.is_empty() && notes.ended.is_empty());
    }
}
