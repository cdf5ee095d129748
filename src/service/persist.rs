//! Loading a match record and saving it back with one compare-and-set.
//!
//! A match is stored in the compact layout of [`compact`]: its setup once,
//! then one log entry per commit. Matches stored by servers before that
//! layout (the whole record as JSON) load and play on in their own layout.

use std::sync::Arc;

use super::cache::Cached;
use super::clock::now_ms;
use super::compact;
use super::events::{self, StoredEvent};
use super::record::{MatchRecord, MatchView};
use super::{Error, Service, driver, tokens};
use crate::rules::Seat;
use crate::store::{Commit, CommitOutcome, Snapshot, is_snapshot};

/// How many times a write to a match (a client's action, or the steps due
/// without one) is tried again when another write wins the race.
pub(super) const COMMIT_ATTEMPTS: usize = 8;

impl Service {
    /// The stored match `id`, as the store holds it.
    pub(super) async fn snapshot(&self, id: &str) -> Result<Snapshot, Error> {
        if id.is_empty()
            || id.len() > 64
            || !id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(Error::MatchNotFound);
        }
        self.store.load(id).await?.ok_or(Error::MatchNotFound)
    }

    pub(super) async fn load(&self, id: &str) -> Result<Arc<MatchRecord>, Error> {
        if let Some((version, entries)) = self.cache.position(id)
            && let Some(rec) = self.load_after(id, version, entries).await?
        {
            return Ok(rec);
        }
        let snap = self.snapshot(id).await?;
        let mut rec = decode(&snap)?;
        if rec.legacy_layout && rec.last_seq.is_none() {
            // Stored before the record counted its events.
            rec.last_seq = Some(self.store.last_seq(id).await?);
        }
        let rec = Arc::new(rec);
        if !rec.legacy_layout {
            self.cache.put(
                id,
                Cached {
                    version: rec.version,
                    entries: snap.log.len() as u64,
                    rec: Arc::clone(&rec),
                },
            );
        }
        Ok(rec)
    }

    /// The match from the record kept at `version` with `entries` log
    /// entries, and the entries written since; `None` when that record no
    /// longer applies.
    async fn load_after(
        &self,
        id: &str,
        version: u64,
        entries: u64,
    ) -> Result<Option<Arc<MatchRecord>>, Error> {
        let snap = self
            .store
            .load_tail(id, entries, false)
            .await?
            .ok_or(Error::MatchNotFound)?;
        if is_snapshot(&snap.state) || snap.version < version {
            self.cache.forget(id);
            return Ok(None);
        }
        let Some(mut c) = self.cache.get(id, version) else {
            return Ok(None);
        };
        if snap.log.is_empty() && snap.version == version {
            return Ok(Some(c.rec));
        }
        let mut rec = Arc::unwrap_or_clone(c.rec);
        c.entries += compact::apply(&mut rec, &snap.log)?;
        if rec.version != snap.version {
            self.cache.forget(id);
            return Ok(None);
        }
        let rec = Arc::new(rec);
        c.rec = Arc::clone(&rec);
        c.version = rec.version;
        self.cache.put(id, c);
        Ok(Some(rec))
    }

    /// Loads a match and plays, within the step budget, what needs no
    /// client: house bots, automatic deals, move clocks that have run out.
    pub(super) async fn load_current(&self, id: &str) -> Result<Arc<MatchRecord>, Error> {
        let rec = self.load(id).await?;
        self.bring_current(rec, Scheduling::Write).await
    }

    /// [`load_current`](Self::load_current) from `rec`, a record just
    /// loaded; `scheduling` says who records the match's next due time.
    pub(super) async fn bring_current(
        &self,
        mut rec: Arc<MatchRecord>,
        scheduling: Scheduling,
    ) -> Result<Arc<MatchRecord>, Error> {
        let id = rec.id.clone();
        for _ in 0..COMMIT_ATTEMPTS {
            let now = now_ms();
            if !driver::has_work(&rec, now, self.limits.caps()) {
                return Ok(rec);
            }
            let before = rec.version;
            let driver::Advanced {
                rec: advanced,
                events,
                applied: house,
            } = self
                .driver
                .advance(Arc::unwrap_or_clone(rec), Vec::new(), now)
                .await?;
            let advanced = Arc::new(advanced);
            if advanced.version == before {
                return Ok(advanced);
            }
            if let CommitOutcome::Committed { .. } = self
                .save_as(&advanced, before, &events, None, scheduling)
                .await?
            {
                house.record();
                return Ok(advanced);
            }
            rec = self.load(&id).await?;
        }
        self.load(&id).await
    }

    /// Writes `rec` (read at version `before`) back with its new `events`
    /// and, for an idempotent action, the answer a retry gets: one
    /// compare-and-set.
    ///
    /// # Errors
    /// `Internal` if the record does not serialize; the store's errors.
    pub(super) async fn save(
        &self,
        rec: &Arc<MatchRecord>,
        before: u64,
        events: &[StoredEvent],
        idempotency: Option<(&str, &str)>,
    ) -> Result<CommitOutcome, Error> {
        self.save_as(rec, before, events, idempotency, Scheduling::Write)
            .await
    }

    /// [`save`](Self::save), with `scheduling` saying who records the
    /// match's next due time.
    async fn save_as(
        &self,
        rec: &Arc<MatchRecord>,
        before: u64,
        events: &[StoredEvent],
        idempotency: Option<(&str, &str)>,
        scheduling: Scheduling,
    ) -> Result<CommitOutcome, Error> {
        let (state, events) = if rec.legacy_layout {
            (Some(serde_json::to_string(rec)?), events::encode(events)?)
        } else {
            let moves = compact::moves_of(events);
            if moves.len() as u64 != rec.version.saturating_sub(before) {
                return Err(Error::Internal(format!(
                    "{} moves to store for versions {before} to {}",
                    moves.len(),
                    rec.version
                )));
            }
            (None, vec![compact::entry(&moves, rec.deadline_ms)])
        };
        // Scheduled before the write, so that a crash right after it loses
        // nothing (a write that then loses its race leaves the schedule
        // early, which costs one look), and again after it (see
        // `scheduler.rs`). A scheduler's claim needs neither: its lease
        // keeps the match in the schedule until it settles it.
        let write = scheduling == Scheduling::Write;
        let check = if write {
            self.schedule_due(rec).await?
        } else {
            None
        };
        let commit = Commit {
            expected_version: before,
            new_version: rec.version,
            state: state.as_deref(),
            events: &events,
            idempotency,
        };
        let outcome = self.store.commit(&rec.id, commit).await?;
        if let CommitOutcome::Committed { .. } = outcome
            && !rec.legacy_layout
            && let Some((version, entries)) = self.cache.position(&rec.id)
            && version == before
        {
            // What this write made is what the next read would rebuild.
            self.cache.put(
                &rec.id,
                Cached {
                    version: rec.version,
                    entries: entries + 1,
                    rec: Arc::clone(rec),
                },
            );
        }
        if let CommitOutcome::Committed { .. } = outcome {
            // Told first: the tell check scheduled before the write stays
            // until then, and stays when the telling failed.
            let told = self.hooks.committed(rec).await;
            if write {
                self.schedule_told(rec, check, told).await;
            } else if !told {
                self.schedule_untold(rec).await;
            }
        }
        Ok(outcome)
    }

    /// Stores a new match with the events of its creation and tells its
    /// players, scheduled as a write is ([`save`](Self::save)); `false` if
    /// the id is taken.
    ///
    /// # Errors
    /// `Internal` if the record does not serialize; the store's errors.
    pub(super) async fn store_new(
        &self,
        rec: &MatchRecord,
        events: &[StoredEvent],
    ) -> Result<bool, Error> {
        let moves = compact::moves_of(events);
        if moves.len() as u64 != rec.version {
            return Err(Error::Internal(format!(
                "{} moves to store for version {}",
                moves.len(),
                rec.version
            )));
        }
        let setup = compact::setup_of(rec)?;
        let log = [compact::entry(&moves, rec.deadline_ms)];
        let check = self.schedule_due(rec).await?;
        let created = self
            .store
            .create(&rec.id, rec.version, &setup, &log)
            .await?;
        if created {
            let told = self.hooks.started(rec).await;
            self.schedule_told(rec, check, told).await;
        }
        Ok(created)
    }

    /// What the store remembers as the answer `view` (of `rec`) to an
    /// idempotent action: the version it was given at, from which the
    /// answer is rebuilt (the whole answer for a match in the old layout).
    ///
    /// # Errors
    /// `Internal` if the view does not serialize.
    pub(super) fn answer_to_remember(rec: &MatchRecord, view: &MatchView) -> Result<String, Error> {
        if rec.legacy_layout {
            Ok(serde_json::to_string(view)?)
        } else {
            Ok(format!("@{}", rec.version))
        }
    }

    /// The answer to a retry, from what the store remembered: `seat`'s view
    /// of the match at the remembered version, serialized exactly as the
    /// first answer was.
    ///
    /// # Errors
    /// `Internal` for a remembered answer that does not read back; the
    /// store's errors.
    pub(super) async fn remembered_answer(
        &self,
        id: &str,
        seat: Seat,
        remembered: String,
    ) -> Result<String, Error> {
        let Some(version) = remembered.strip_prefix('@') else {
            return Ok(remembered);
        };
        let version: u64 = version
            .parse()
            .map_err(|_| Error::Internal("remembered answer".into()))?;
        let snap = self.snapshot(id).await?;
        let past = compact::replay(&snap.state, &snap.log, Some(version), None)?;
        if past.rec.version != version {
            return Err(Error::Internal("remembered version not in the log".into()));
        }
        Ok(serde_json::to_string(&past.rec.view(Some(seat)))?)
    }

    /// The seat of `token` in `rec`; `None` without a token.
    pub(super) fn seat_of(rec: &MatchRecord, token: Option<&str>) -> Result<Option<Seat>, Error> {
        let Some(token) = token else { return Ok(None) };
        // Hashed once, compared with every seat's hash.
        let hash = tokens::hash_token(token);
        rec.seats
            .iter()
            .position(|s| {
                s.token_sha256
                    .as_deref()
                    .is_some_and(|h| tokens::hash_matches(&hash, h))
            })
            .map(|i| Some(i as Seat))
            .ok_or_else(|| {
                Error::Unauthorized("this token is not a seat token of this match".into())
            })
    }
}

/// The record of a stored match, in either layout.
///
/// # Errors
/// `Internal` when the stored match does not read back.
pub(super) fn decode(snap: &Snapshot) -> Result<MatchRecord, Error> {
    if is_snapshot(&snap.state) {
        let mut rec: MatchRecord = serde_json::from_str(&snap.state)?;
        rec.version = snap.version;
        rec.legacy_layout = true;
        return Ok(rec);
    }
    let replayed = compact::replay(&snap.state, &snap.log, None, None)?;
    if replayed.rec.version != snap.version {
        return Err(Error::Internal(format!(
            "stored match at version {} replays to {}",
            snap.version, replayed.rec.version
        )));
    }
    Ok(replayed.rec)
}

/// Who records a write's next due time in the store's schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scheduling {
    /// The write itself, before and after committing (a request's write).
    Write,
    /// The scheduler's claim, when it settles the match (its lease keeps
    /// the match scheduled meanwhile, and a crash lets the lease run out).
    Claimed,
}
