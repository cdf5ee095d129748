//! Expiry, and the settling every answer does first.
//!
//! Nothing changes a challenge's record when its time runs out: a
//! pending challenge past its expiry only reads as expired (see
//! [`ChallengeRecord::status_at`]) until a writer writes it so. The first
//! answer after it, or the housekeeping's sweep of the pending index
//! (ordered by expiry, once a second), writes it expired, and that one
//! write announces the expiry to its players and takes it out of the
//! indexes, so the news is told once however many instances notice
//! together. A challenge left `starting` by a writer that stopped before
//! creating its match is started by its next writer, or by the
//! housekeeping through the note the acceptance left (see
//! `lobby/recovery.rs`).
//!
//! Every answer therefore goes through [`Lobby::change_challenge`], which
//! settles the record (expire or start it) before the caller's own
//! change, all in one compare-and-set update; a read
//! ([`Lobby::peek_challenge`]) only reads.

use crate::lobby::Lobby;
use crate::lobby::records::PlayerEvent;
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, Updated, load, update};
use crate::service::{Error, clock_now_ms};

use super::record::{ChallengeRecord, ChallengeStatus, PENDING_INDEX, Unsettled, check_id};

/// Challenges one housekeeping sweep expires, at most.
const SWEEP_BATCH: usize = 64;

/// A challenge as [`Lobby::change_challenge`] left it.
pub(super) struct Changed<R> {
    /// The challenge as stored now.
    pub record: ChallengeRecord,
    /// What the caller's change answered; `None` when the challenge had
    /// first to be settled (it was expired or started instead, and the
    /// change was not asked).
    pub answer: Option<R>,
    /// The time the change was decided at (milliseconds since the Unix
    /// epoch).
    pub now: u64,
}

/// What the one update of [`Lobby::change_challenge`] did.
enum Done<R> {
    /// Wrote the challenge expired.
    Expired,
    /// Found it `starting`: it is to be started.
    Start,
    /// Left it to the caller's change, which answered `R`.
    Changed(R),
}

impl Lobby {
    /// Expires the pending challenges past their expiry (at most
    /// [`SWEEP_BATCH`]); returns how many were found closed.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub async fn sweep_challenges(&self) -> Result<usize, Error> {
        let store = self.store();
        let now = clock_now_ms();
        let mut done = 0;
        for entry in store.index_page(PENDING_INDEX, None, SWEEP_BATCH).await? {
            let (due, id) = entry.split_once(':').unwrap_or(("0", ""));
            if due.parse::<u64>().unwrap_or(0) > now {
                break;
            }
            // Loading a pending challenge past its expiry expires it.
            match self.load_challenge(id).await {
                Ok(_) | Err(Error::ChallengeNotFound) => {}
                Err(e) => return Err(e),
            }
            store.index_remove(PENDING_INDEX, &entry).await?;
            done += 1;
        }
        Ok(done)
    }

    /// Challenge `id` as stored, read only (its status as of a time is
    /// [`ChallengeRecord::status_at`]).
    ///
    /// # Errors
    /// `ChallengeNotFound`; `InvalidRequest` for a malformed id;
    /// `StoreUnavailable`.
    pub(in crate::lobby) async fn peek_challenge(
        &self,
        id: &str,
    ) -> Result<ChallengeRecord, Error> {
        check_id(id)?;
        let (_, rec) = load(self.store(), Doc::Challenge, id, || {
            Error::ChallengeNotFound
        })
        .await?;
        Ok(rec)
    }

    /// Loads challenge `id`, settled: a `starting` one is started, and a
    /// pending one past its expiry is written expired (and announced).
    ///
    /// # Errors
    /// As [`change_challenge`](Self::change_challenge).
    pub(super) async fn load_challenge(&self, id: &str) -> Result<ChallengeRecord, Error> {
        let loaded = self.change_challenge(id, |_, _| Ok(Step::Keep(()))).await?;
        Ok(loaded.record)
    }

    /// Changes challenge `id` by compare-and-set once it is settled:
    /// `change` is given the record and the time as of each attempt, as
    /// [`update`] gives it, unless the record must first be expired (then
    /// that is written instead, and announced) or started (then it is
    /// started instead); `change` is not asked then, and the caller
    /// judges what it wanted against the settled record.
    ///
    /// # Errors
    /// `ChallengeNotFound` for an id no challenge has (or had);
    /// whatever `change` returns (nothing is written then); whatever
    /// starting the match returns; `Busy` after lost races;
    /// `StoreUnavailable`.
    pub(super) async fn change_challenge<R>(
        &self,
        id: &str,
        mut change: impl FnMut(&mut ChallengeRecord, u64) -> Result<Step<R>, Error>,
    ) -> Result<Changed<R>, Error> {
        check_id(id)?;
        let mut now = 0;
        let Updated { record, answer, .. } = update(
            self.store(),
            Doc::Challenge,
            id,
            |rec: &ChallengeRecord| Some(rec.ttl(clock_now_ms())),
            || Error::ChallengeNotFound,
            |rec: &mut ChallengeRecord| {
                now = clock_now_ms();
                Ok(match rec.unsettled(now) {
                    Some(Unsettled::Expire) => {
                        rec.status = ChallengeStatus::Expired;
                        Step::Write(Done::Expired)
                    }
                    Some(Unsettled::Start) => Step::Keep(Done::Start),
                    None => match change(rec, now)? {
                        Step::Write(r) => Step::Write(Done::Changed(r)),
                        Step::Keep(r) => Step::Keep(Done::Changed(r)),
                    },
                })
            },
        )
        .await?;
        let (record, answer) = match answer {
            Done::Expired => {
                self.announce_expiry(&record).await;
                (record, None)
            }
            Done::Start => (self.start_accepted(&record).await?, None),
            Done::Changed(r) => (record, Some(r)),
        };
        Ok(Changed {
            record,
            answer,
            now,
        })
    }

    /// After the write that expired `rec`: tells its players and takes
    /// it out of the indexes.
    async fn announce_expiry(&self, rec: &ChallengeRecord) {
        tracing::info!(challenge_id = %rec.id, "challenge expired");
        let event = PlayerEvent::ChallengeExpired {
            challenge_id: rec.id.clone(),
        };
        self.tell_challenged(rec, None, &event).await;
        self.unlist_challenge(rec).await;
    }
}
