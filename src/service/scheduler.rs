//! The scheduler: every instance plays the work that is due in its
//! matches — house bots' moves, automatic deals, move clocks that ran out,
//! and the settling of a finished match with players — with nobody reading.
//!
//! Every write schedules the match in the store's schedule of due work
//! (`store/due.rs`) at the time its new record says something is due,
//! before the write is committed. Each instance's scheduler claims due
//! matches from the store with a lease, plays one bounded advance of each
//! (off the async workers, as a request would: [`driver`]), commits it,
//! and sets the match's next time. Two instances never play the same step
//! twice: a claim is leased, and a step is a compare-and-set on the
//! match's version, so of two writers of one version exactly one wins. An
//! instance that dies holding a claim loses nothing: its lease runs out
//! and another instance claims the match again.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use tokio::sync::{Notify, Semaphore};

use super::clock::now_ms;
use super::persist::Scheduling;
use super::record::MatchRecord;
use super::{Error, Service, driver, metrics};
use crate::rules::Phase;
use crate::store::DueClaim;

/// How long after a failed attempt a claimed match is tried again.
const RETRY_AFTER_MS: u64 = 500;

/// How the scheduler runs.
#[derive(Clone, Copy, Debug)]
pub struct SchedulerOptions {
    /// Whether this instance plays due work at all, and runs the lobby's
    /// housekeeping (an instance that does not still schedules what its
    /// writes make due, for the others).
    pub enabled: bool,
    /// Pause between two claims while there is work (other instances'
    /// due work is found this often).
    pub poll: Duration,
    /// Longest pause between two claims when idle: the pause doubles from
    /// `poll` up to this while claims find nothing, and is cut short by
    /// this instance's own writes (work due now, or the soonest clock it
    /// set).
    pub idle_poll: Duration,
    /// How long a claim is this instance's before another may take it.
    pub lease: Duration,
    /// Most matches claimed at once.
    pub batch: usize,
    /// Most matches advanced at once.
    pub concurrency: usize,
}

impl Default for SchedulerOptions {
    fn default() -> SchedulerOptions {
        SchedulerOptions {
            enabled: true,
            poll: Duration::from_millis(50),
            idle_poll: Duration::from_millis(250),
            lease: Duration::from_secs(15),
            batch: 64,
            concurrency: 32,
        }
    }
}

/// Future due times one instance remembers, at most (the soonest ones;
/// later ones are found by polling).
const REMEMBERED: usize = 4096;

/// Remembered due times are rounded up to this many milliseconds, so that
/// many clocks running out together cost one wake-up (and one claim).
const WAKE_GRAIN_MS: u64 = 10;

/// What this instance's writes tell its scheduler: work due now (a
/// notification), and the future due times they set (the soonest
/// [`REMEMBERED`] of them), so that a clock this instance set is played
/// when it runs out rather than on the next poll.
#[derive(Debug, Default)]
pub struct DueWake {
    now: Notify,
    later: Mutex<BTreeSet<u64>>,
}

impl DueWake {
    /// Notes work due at `at` (milliseconds since the Unix epoch).
    fn due(&self, at: u64, now: u64) {
        if at <= now {
            self.now.notify_one();
            return;
        }
        let mut later = self.later.lock().unwrap_or_else(PoisonError::into_inner);
        later.insert(at.div_ceil(WAKE_GRAIN_MS) * WAKE_GRAIN_MS);
        if later.len() > REMEMBERED {
            later.pop_last();
        }
    }

    /// Waits up to `pause`, less when a due time this instance set comes
    /// sooner (not at all when one has come).
    async fn wait(&self, pause: Duration) {
        let now = now_ms();
        let next = next_wake(
            &mut self.later.lock().unwrap_or_else(PoisonError::into_inner),
            now,
        );
        let pause = match next {
            Some(at) => pause.min(Duration::from_millis(at - now)),
            None => pause,
        };
        if pause.is_zero() {
            return;
        }
        let _ = tokio::time::timeout(pause, self.now.notified()).await;
    }
}

/// The next time to wake for, of the remembered `later` due times as of
/// `now`: `now` itself when one has come (those are forgotten), else the
/// soonest, if any.
fn next_wake(later: &mut BTreeSet<u64>, now: u64) -> Option<u64> {
    let mut came = false;
    while later.first().is_some_and(|&t| t <= now) {
        later.pop_first();
        came = true;
    }
    if came {
        Some(now)
    } else {
        later.first().copied()
    }
}

/// When something is next due in `rec` without a client, if ever: now for
/// a house bot's move, an automatic deal or a finished match with players
/// to settle; the move clock's deadline for a client seat.
pub fn next_due(rec: &MatchRecord, now: u64, caps: driver::Caps) -> Option<u64> {
    if rec.game.phase() == Phase::MatchOver {
        let players = rec
            .seats
            .iter()
            .any(|s| s.player.as_ref().is_some_and(|p| !p.is_house()));
        return players.then_some(now);
    }
    if driver::has_work(rec, 0, caps) {
        return Some(now);
    }
    if driver::deal_refused(rec, caps.max_hands) || rec.game.turn().is_none() {
        return None;
    }
    rec.deadline_ms
}

/// How long after a write that leaves a player's seat to act the match
/// is looked at again unless its writer, having told the player, moved
/// that look to the match's own due time (see [`Service::schedule_due`]).
pub const TELL_GRACE_MS: u64 = 2_000;

/// When a look at `rec` must check that the player whose seat is to act
/// was told so: [`TELL_GRACE_MS`] from `now`, if a player's seat is to act.
fn tell_check(rec: &MatchRecord, now: u64) -> Option<u64> {
    rec.player_to_act().map(|_| now + TELL_GRACE_MS)
}

impl Service {
    /// Records in the store's schedule when `rec` (about to be written)
    /// next has something due, and wakes this instance's scheduler when
    /// that is now. When a player's seat is to act, the match is scheduled
    /// no later than a tell check ([`TELL_GRACE_MS`] from now): if the
    /// writer stops before telling the player, that look tells it. The
    /// time of the check is returned; this instance's scheduler is not
    /// woken for it.
    pub(super) async fn schedule_due(&self, rec: &MatchRecord) -> Result<Option<u64>, Error> {
        let now = now_ms();
        let due = next_due(rec, now, self.limits.caps());
        let check = tell_check(rec, now).filter(|&c| due.is_none_or(|d| c < d));
        let Some(at) = check.or(due) else {
            return Ok(None);
        };
        self.store.schedule(&rec.id, at).await?;
        if let Some(d) = due {
            self.due_wake.due(d, now);
        }
        Ok(check)
    }

    /// After a write of `rec`: once its player was told (`told`), moves
    /// the tell check `check` made before the write (see
    /// [`Service::schedule_due`]) to the match's own due time, unless the
    /// schedule changed meanwhile; when the telling failed, schedules a
    /// check again ([`Service::schedule_untold`]). Then, or without a
    /// check, [`Service::schedule_written`], which only moves earlier.
    pub(super) async fn schedule_told(&self, rec: &MatchRecord, check: Option<u64>, told: bool) {
        if !told {
            self.schedule_untold(rec).await;
        } else if let Some(check) = check {
            let due = next_due(rec, now_ms(), self.limits.caps());
            match self.store.settle_due(&rec.id, check, due).await {
                Ok(true) => return,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(match_id = %rec.id, error = %e, "tell check left in the schedule");
                    return;
                }
            }
        }
        self.schedule_written(rec).await;
    }

    /// After a commit of `rec` whose telling failed: schedules a tell
    /// check (another write may have moved the one made before it; a
    /// scheduler's own commit made none, and this earlier time outlives
    /// its lease, which its settling then leaves alone).
    pub(super) async fn schedule_untold(&self, rec: &MatchRecord) {
        let Some(check) = tell_check(rec, now_ms()) else {
            return;
        };
        if let Err(e) = self.store.schedule(&rec.id, check).await {
            tracing::warn!(match_id = %rec.id, error = %e, "tell check not scheduled again");
        }
    }

    /// After a write of `rec`: schedules it again. A scheduler may have
    /// claimed the match between the schedule before the write and the
    /// write itself, read the version before it, and set the time that
    /// version called for; this puts back what the written version calls
    /// for. A failure is logged: the write is made, and the schedule made
    /// before it stands unless that race happened too.
    pub(super) async fn schedule_written(&self, rec: &MatchRecord) {
        let now = now_ms();
        let Some(at) = next_due(rec, now, self.limits.caps()) else {
            return;
        };
        match self.store.schedule(&rec.id, at).await {
            Ok(()) => self.due_wake.due(at, now),
            Err(e) => {
                tracing::warn!(match_id = %rec.id, error = %e, "due work not scheduled after a write")
            }
        }
    }

    /// Plays one claimed match: one bounded advance of what is due,
    /// committed, then the match's next time set (or the match dropped
    /// from the schedule when nothing more will be due).
    ///
    /// # Errors
    /// The store's errors; the claim then runs out and is taken again.
    pub async fn play_due(&self, claim: &DueClaim) -> Result<(), Error> {
        let rec = match self.load(&claim.id).await {
            Ok(rec) => rec,
            Err(Error::MatchNotFound) => {
                self.store
                    .settle_due(&claim.id, claim.lease_until_ms, None)
                    .await?;
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let loaded = rec.version;
        let rec = self.bring_current(rec, Scheduling::Claimed).await?;
        let next = if rec.game.phase() == Phase::MatchOver {
            self.hooks.settle(&rec).await?;
            None
        } else {
            let now = now_ms();
            let next = next_due(&rec, now, self.limits.caps());
            // A look that played nothing: the last writer may have
            // stopped before telling the seat to act (this look's own
            // commits told, or scheduled a check when they failed).
            if rec.version == loaded && next.is_none_or(|t| t > now) {
                self.hooks.retell(&rec).await?;
            }
            next
        };
        self.store
            .settle_due(&claim.id, claim.lease_until_ms, next)
            .await?;
        Ok(())
    }
}

/// Starts `svc`'s scheduler on the current Tokio runtime (nothing outside
/// one); it stops when the service is dropped.
pub fn spawn_scheduler(svc: &Arc<Service>, opts: SchedulerOptions) {
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        return;
    };
    if !opts.enabled {
        return;
    }
    let weak = Arc::downgrade(svc);
    let wake = Arc::clone(&svc.due_wake);
    rt.spawn(run(weak, wake, opts));
}

async fn run(weak: Weak<Service>, wake: Arc<DueWake>, opts: SchedulerOptions) {
    let running = Arc::new(Semaphore::new(opts.concurrency.max(1)));
    let mut pause = opts.poll;
    loop {
        // Room for at least one advance: while every slot is busy, the
        // next claim waits for one to free (not for a poll tick), then
        // takes whatever room there is then, up to a batch.
        let Ok(first) = Arc::clone(&running).acquire_owned().await else {
            return;
        };
        let Some(svc) = weak.upgrade() else { return };
        let mut permits = vec![first];
        while permits.len() < opts.batch.max(1) {
            match Arc::clone(&running).try_acquire_owned() {
                Ok(p) => permits.push(p),
                Err(_) => break,
            }
        }
        let room = permits.len();
        let lease = u64::try_from(opts.lease.as_millis()).unwrap_or(u64::MAX);
        let claims = match svc.store.claim_due(now_ms(), lease, room).await {
            Ok(claims) => claims,
            Err(e) => {
                tracing::warn!(error = %e, "due work not claimed");
                Vec::new()
            }
        };
        let full = claims.len() >= room;
        pause = if claims.is_empty() {
            (pause * 2).clamp(opts.poll, opts.idle_poll.max(opts.poll))
        } else {
            opts.poll
        };
        let now = now_ms();
        for (claim, permit) in claims.into_iter().zip(permits) {
            let late = now.saturating_sub(claim.due_ms) as f64 / 1000.0;
            metrics::metrics()
                .scheduler_lateness
                .with_label_values::<&str>(&[])
                .observe(late);
            let svc = Arc::clone(&svc);
            tokio::spawn(async move {
                let played = svc.play_due(&claim).await;
                let outcome = if played.is_ok() { "played" } else { "failed" };
                metrics::metrics()
                    .scheduler_claims
                    .with_label_values(&[outcome])
                    .inc();
                if let Err(e) = played {
                    tracing::warn!(match_id = %claim.id, error = %e, "due work not played");
                    // Tried again after a pause rather than after the whole
                    // lease (if the store cannot take even this, the lease
                    // runs out).
                    let again = now_ms() + RETRY_AFTER_MS;
                    let _ = svc
                        .store
                        .settle_due(&claim.id, claim.lease_until_ms, Some(again))
                        .await;
                }
                drop(permit);
            });
        }
        drop(svc);
        if !full {
            wake.wait(pause).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_due_times_are_rounded_bounded_and_forgotten_once_come() {
        let wake = DueWake::default();
        wake.due(1_001, 1_000);
        wake.due(1_004, 1_000);
        wake.due(1_019, 1_000);
        let mut later = wake.later.lock().unwrap().clone();
        assert_eq!(later.iter().copied().collect::<Vec<_>>(), [1_010, 1_020]);
        assert_eq!(next_wake(&mut later, 1_005), Some(1_010));
        assert_eq!(next_wake(&mut later, 1_010), Some(1_010), "come: wake now");
        assert_eq!(later.iter().copied().collect::<Vec<_>>(), [1_020]);
        assert_eq!(next_wake(&mut later, 1_030), Some(1_030));
        assert_eq!(next_wake(&mut later, 1_040), None, "nothing left");
        for at in 0..(REMEMBERED as u64 + 10) {
            wake.due(2_000 + at * WAKE_GRAIN_MS, 1_000);
        }
        let kept = wake.later.lock().unwrap();
        assert_eq!(kept.len(), REMEMBERED, "the soonest are kept");
        assert_eq!(kept.first(), Some(&1_010));
    }

    #[test]
    fn work_due_now_is_a_notification_not_a_remembered_time() {
        let wake = DueWake::default();
        wake.due(900, 1_000);
        assert!(wake.later.lock().unwrap().is_empty());
    }
}
