//! Loading a match record and saving it back with one compare-and-set.

use super::clock::now_ms;
use super::events::{self, StoredEvent};
use super::record::MatchRecord;
use super::{Error, Service, driver, tokens};
use crate::rules::Seat;
use crate::store::{Commit, CommitOutcome};

/// How many times the driver's steps are retried when another write wins.
const ADVANCE_ATTEMPTS: usize = 8;

impl Service {
    pub(super) async fn load(&self, id: &str) -> Result<MatchRecord, Error> {
        if id.is_empty()
            || id.len() > 64
            || !id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(Error::MatchNotFound);
        }
        let snap = self.store.load(id).await?.ok_or(Error::MatchNotFound)?;
        let mut rec: MatchRecord = serde_json::from_str(&snap.state)?;
        rec.version = snap.version;
        if rec.last_seq.is_none() {
            // Stored before the record counted its events.
            rec.last_seq = Some(self.store.last_seq(id).await?);
        }
        Ok(rec)
    }

    /// Loads a match and plays, within the step budget, what needs no
    /// client: house bots, automatic deals, move clocks that have run out.
    pub(super) async fn load_current(&self, id: &str) -> Result<MatchRecord, Error> {
        for _ in 0..ADVANCE_ATTEMPTS {
            let rec = self.load(id).await?;
            let now = now_ms();
            if !driver::has_work(&rec, now, self.limits.max_hands_per_match) {
                return Ok(rec);
            }
            let before = rec.version;
            let driver::Advanced {
                rec,
                events,
                applied: house,
            } = self.driver.advance(rec, Vec::new(), now).await?;
            if rec.version == before {
                return Ok(rec);
            }
            if let CommitOutcome::Committed { .. } = self.save(&rec, before, &events, None).await? {
                house.record();
                return Ok(rec);
            }
        }
        self.load(id).await
    }

    /// Writes `rec` (read at version `before`) back with its new `events`
    /// and, for an idempotent action, the answer a retry gets: one
    /// compare-and-set.
    ///
    /// # Errors
    /// `Internal` if the record does not serialize; the store's errors.
    pub(super) async fn save(
        &self,
        rec: &MatchRecord,
        before: u64,
        events: &[StoredEvent],
        idempotency: Option<(&str, &str)>,
    ) -> Result<CommitOutcome, Error> {
        let state = rec.encode()?;
        let events = events::encode(events)?;
        let commit = Commit {
            expected_version: before,
            new_version: rec.version,
            state: &state,
            events: &events,
            idempotency,
        };
        let outcome = self.store.commit(&rec.id, commit).await?;
        if let CommitOutcome::Committed { .. } = outcome {
            self.after_commit(rec).await;
        }
        Ok(outcome)
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
