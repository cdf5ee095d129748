//! The schedule of due work: which matches have something to do without a
//! client (a house bot to move, a hand to deal, a clock to expire, a
//! finished match to settle), and from when.
//!
//! The schedule holds one time per match id (milliseconds since the Unix
//! epoch). It is an index, not the truth: the match's own record says what
//! is due, and the schedule only says when to look. So it may be early
//! (a look finds nothing to do and costs one read) but must never be late,
//! which three operations guarantee:
//!
//! - [`schedule`](super::MatchStore::schedule) only ever moves a match's
//!   time earlier (or adds it). A writer schedules the new record's due
//!   time *before* it commits: if the commit loses its race, the entry is at
//!   worst early.
//! - [`claim_due`](super::MatchStore::claim_due) hands out matches whose
//!   time has come and, in the same step, moves each one's time to the end
//!   of a lease. Whoever claimed it looks first; if it dies, the match is
//!   due again once the lease runs out, for any instance to take over.
//! - [`settle_due`](super::MatchStore::settle_due) sets the time the claimer
//!   read from the record (or removes the match) only if the entry still
//!   holds the claimed lease: a writer that scheduled something earlier in
//!   the meantime keeps its earlier time.
//!
//! On Redis the schedule is [`SHARDS`] sorted sets, so that on a cluster
//! they spread over the masters; a match always lands in the same one.

use std::collections::{BTreeSet, HashMap};

/// How many parts the schedule is kept in on Redis.
pub const SHARDS: u32 = 16;

/// A match handed out by [`claim_due`](super::MatchStore::claim_due).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueClaim {
    /// The match.
    pub id: String,
    /// The time it was due from (how late the claim is: now less this).
    pub due_ms: u64,
    /// The time its entry now holds: the end of the lease. Passed back to
    /// [`settle_due`](super::MatchStore::settle_due).
    pub lease_until_ms: u64,
}

/// The part of the schedule match `id` is kept in (FNV-1a of the id).
pub fn shard_of(id: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in id.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h % SHARDS
}

/// The schedule held in memory: for the memory store, and the reference
/// the Redis one is tested against.
#[derive(Debug, Default)]
pub(crate) struct MemorySchedule {
    by_time: BTreeSet<(u64, String)>,
    by_id: HashMap<String, u64>,
}

impl MemorySchedule {
    /// Adds `id` at `at_ms`, or moves it there if that is earlier.
    pub(crate) fn schedule(&mut self, id: &str, at_ms: u64) {
        match self.by_id.get(id) {
            Some(&t) if t <= at_ms => {}
            _ => self.set(id, at_ms),
        }
    }

    fn set(&mut self, id: &str, at_ms: u64) {
        if let Some(old) = self.by_id.insert(id.to_string(), at_ms) {
            self.by_time.remove(&(old, id.to_string()));
        }
        self.by_time.insert((at_ms, id.to_string()));
    }

    fn remove(&mut self, id: &str) {
        if let Some(old) = self.by_id.remove(id) {
            self.by_time.remove(&(old, id.to_string()));
        }
    }

    /// At most `limit` matches due at `now_ms`, earliest first, each now
    /// leased until `now_ms + lease_ms`.
    pub(crate) fn claim(&mut self, now_ms: u64, lease_ms: u64, limit: usize) -> Vec<DueClaim> {
        let until = now_ms.saturating_add(lease_ms.max(1));
        let due: Vec<(u64, String)> = self
            .by_time
            .iter()
            .take_while(|(t, _)| *t <= now_ms)
            .take(limit)
            .cloned()
            .collect();
        due.into_iter()
            .map(|(due_ms, id)| {
                self.set(&id, until);
                DueClaim {
                    id,
                    due_ms,
                    lease_until_ms: until,
                }
            })
            .collect()
    }

    /// Sets `id` to `next` (removes it for `None`) if it still holds the
    /// lease `claimed`; whether it did.
    pub(crate) fn settle(&mut self, id: &str, claimed: u64, next: Option<u64>) -> bool {
        if self.by_id.get(id) != Some(&claimed) {
            return false;
        }
        match next {
            Some(t) => self.set(id, t),
            None => self.remove(id),
        }
        true
    }

    /// The time `id` is scheduled at, if it is.
    #[cfg(test)]
    fn at(&self, id: &str) -> Option<u64> {
        self.by_id.get(id).copied()
    }

    /// How many matches are scheduled.
    pub(crate) fn len(&self) -> usize {
        self.by_id.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_only_moves_earlier() {
        let mut s = MemorySchedule::default();
        s.schedule("a", 100);
        s.schedule("a", 200);
        assert_eq!(s.at("a"), Some(100));
        s.schedule("a", 50);
        assert_eq!(s.at("a"), Some(50));
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn a_claim_leases_and_a_stale_settle_keeps_the_earlier_time() {
        let mut s = MemorySchedule::default();
        s.schedule("a", 10);
        s.schedule("b", 30);
        let got = s.claim(20, 1000, 10);
        assert_eq!(
            got,
            vec![DueClaim {
                id: "a".into(),
                due_ms: 10,
                lease_until_ms: 1020
            }]
        );
        assert!(s.claim(21, 1000, 10).is_empty(), "a is leased, b not due");
        s.schedule("a", 25);
        assert!(!s.settle("a", 1020, None), "rescheduled meanwhile");
        assert_eq!(s.at("a"), Some(25));
        let got = s.claim(40, 1000, 10);
        assert_eq!(got.len(), 2);
        assert!(s.settle("a", 1040, None));
        assert!(s.settle("b", 1040, Some(5000)));
        assert_eq!((s.at("a"), s.at("b")), (None, Some(5000)));
    }

    #[test]
    fn shards_are_stable_and_spread() {
        assert_eq!(shard_of("m1"), shard_of("m1"));
        let mut seen = [false; SHARDS as usize];
        for i in 0..200 {
            seen[shard_of(&format!("m{i:024x}")) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }
}
