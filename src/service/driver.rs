//! Plays what needs no client — automatic deals, house-bot seats, expired
//! move clocks — a bounded number of steps at a time, off the async workers.
//!
//! A match of four house bots to a far target is tens of thousands of
//! moves; played inside one request it would hold a worker for seconds (or
//! minutes with `montecarlo` bots) and stall every request queued behind
//! it. So each write advances a match by at most
//! [`Limits::max_steps`](super::Limits) steps and commits; the scheduler
//! (`scheduler.rs`) continues from there. Every step is a whole engine
//! move, so the stored state is always consistent, and the bots' random
//! generator is derived from the seed and the version, so a match split
//! over many requests plays exactly as it would in one.
//!
//! Steps of a match with a CPU-heavy bot ([`bots::HEAVY`]: milliseconds a
//! decision) run on the low-priority [`BotPool`], never on an async worker, and at
//! most [`Driver::new`]'s `threads` batches at once (hints have their own,
//! smaller allowance): a request that cannot get a slot in time commits
//! what it has and leaves the rest for later. Other bots decide in
//! microseconds, so their bounded batches run in place and never queue
//! behind a heavy one.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use tokio::sync::Semaphore;

use super::bot_pool::BotPool;
use super::compact::Actor;
use super::record::MatchRecord;
use super::{Act, Error, Limits, OnTimeout, SeatKind, events, metrics};
use crate::bots;
use crate::rules::{Action, Ending, Event, Phase, Seat};

/// The limits the steps keep to: no deal past `max_hands`, and a rated
/// match abandoned after `abandon_after` missed moves in a row.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// [`Limits::max_hands_per_match`].
    pub max_hands: u32,
    /// [`Limits::abandon_after_missed`].
    pub abandon_after: u8,
}

impl Limits {
    /// The caps of the steps the server plays.
    pub fn caps(&self) -> Caps {
        Caps {
            max_hands: self.max_hands_per_match,
            abandon_after: self.abandon_after_missed,
        }
    }
}

/// How long a request waits for a free bot slot before it commits without
/// advancing (reads) or refuses a hint.
const SLOT_WAIT: Duration = Duration::from_secs(2);

/// The bounded pool house-bot work runs in.
pub struct Driver {
    pool: BotPool,
    steps: Arc<Semaphore>,
    hints: Semaphore,
    max_steps: usize,
    max_hands: Caps,
}

/// What one bounded advance did.
pub struct Advanced {
    /// The match after the steps.
    pub rec: MatchRecord,
    /// The events to append (the caller's first).
    pub events: Vec<events::StoredEvent>,
    /// The moves made, to count once committed.
    pub applied: metrics::Applied,
}

impl Driver {
    /// A driver running at most `threads` advances and `hint_threads` hints
    /// at once, `max_steps` steps per advance, and dealing no hand past
    /// `max_hands`.
    ///
    /// # Errors
    /// `Internal` when the bot threads cannot be started.
    pub fn new(
        threads: usize,
        hint_threads: usize,
        max_steps: usize,
        max_hands: Caps,
    ) -> Result<Driver, Error> {
        Ok(Driver {
            pool: BotPool::new(threads.max(1) + hint_threads.max(1))?,
            steps: Arc::new(Semaphore::new(threads.max(1))),
            hints: Semaphore::new(hint_threads.max(1)),
            max_steps,
            max_hands,
        })
    }

    /// Advances `rec` by at most the step budget, on the bot pool when
    /// there is anything to play; then sets the deadline of the seat to act.
    ///
    /// # Errors
    /// `Internal` when the engine refuses a house move (a bug).
    pub async fn advance(
        &self,
        rec: MatchRecord,
        events: Vec<events::StoredEvent>,
        now: u64,
    ) -> Result<Advanced, Error> {
        let heavy = rec
            .seats
            .iter()
            .any(|s| bots::HEAVY.contains(&s.bot.as_str()));
        if !heavy || !has_work(&rec, now, self.max_hands) {
            return self.in_place(rec, events, now, self.max_steps);
        }
        let slot = tokio::time::timeout(SLOT_WAIT, self.steps.clone().acquire_owned()).await;
        let Ok(Ok(permit)) = slot else {
            metrics::metrics().limit_hit("bot_pool_busy");
            // No slot: commit what there is and advance nothing, without
            // queueing behind the busy bot threads either.
            return self.in_place(rec, events, now, 0);
        };
        let (steps, max_hands) = (self.max_steps, self.max_hands);
        let (rec, events, applied) = self
            .pool
            .run(move || {
                // Held until the steps are done, even if the request goes away.
                let _permit = permit;
                let (mut rec, mut events) = (rec, events);
                let applied = advance(&mut rec, &mut events, now, steps, max_hands);
                (rec, events, applied)
            })
            .await?;
        Ok(Advanced {
            rec,
            events,
            applied: applied?,
        })
    }

    /// Advances `rec` by at most `steps` on the calling thread (cheap bots,
    /// or no steps at all).
    fn in_place(
        &self,
        mut rec: MatchRecord,
        mut events: Vec<events::StoredEvent>,
        now: u64,
        steps: usize,
    ) -> Result<Advanced, Error> {
        let applied = advance(&mut rec, &mut events, now, steps, self.max_hands)?;
        Ok(Advanced {
            rec,
            events,
            applied,
        })
    }

    /// What house bot `bot` would do for `seat` now, computed on the
    /// bot pool within the hint allowance.
    ///
    /// # Errors
    /// `Busy` when every hint slot stays taken; `Internal` on a failed task.
    pub async fn hint(
        &self,
        rec: Arc<MatchRecord>,
        seat: Seat,
        bot: &'static dyn bots::Bot,
    ) -> Result<Action, Error> {
        let _permit = match tokio::time::timeout(SLOT_WAIT, self.hints.acquire()).await {
            Ok(Ok(p)) => p,
            _ => {
                metrics::metrics().limit_hit("hint_pool_busy");
                return Err(Error::Busy("every hint slot is taken; retry later".into()));
            }
        };
        self.pool
            .run(move || bot.choose(&rec.game.view(Some(seat)), &mut bot_rng(&rec)))
            .await
    }
}

/// The generator house bots use at this state: derived from the seed and the
/// version, so a replay with the same seed and moves plays the same.
fn bot_rng(rec: &MatchRecord) -> Xoshiro256PlusPlus {
    let mut key = [0u8; 32];
    key.copy_from_slice(&rec.game.seed);
    for (k, v) in key.iter_mut().zip(rec.version.to_le_bytes()) {
        *k ^= v;
    }
    Xoshiro256PlusPlus::from_seed(key)
}

/// Whether a deal now would pass the match's hand cap.
pub fn deal_refused(rec: &MatchRecord, max_hands: u32) -> bool {
    rec.game.phase() == Phase::AwaitingDeal && rec.game.hands_dealt >= max_hands
}

/// The next step that needs no client, if any: the act and why
/// (`None` for an automatic deal or a forfeit).
fn next_step(rec: &MatchRecord, now: u64, caps: Caps) -> Option<(Seat, Act, Option<&'static str>)> {
    let seat = rec.game.turn()?;
    let phase = rec.game.phase();
    if let Some(gone) = rec.abandoned(caps.abandon_after) {
        return Some((gone, Act::End(Ending::Abandoned), None));
    }
    if deal_refused(rec, caps.max_hands) {
        return None;
    }
    let info = &rec.seats[seat as usize];
    let expired = rec.deadline_ms.is_some_and(|d| now >= d);
    // The bot's choice is made later, only when the step is taken.
    let placeholder = Act::Action(Action::Deal);
    if phase == Phase::AwaitingDeal && rec.auto_deal {
        Some((seat, placeholder, None))
    } else if info.kind == SeatKind::Bot {
        Some((seat, placeholder, Some("house")))
    } else if expired && rec.on_timeout == OnTimeout::Forfeit && phase != Phase::AwaitingDeal {
        Some((seat, Act::Resign, None))
    } else if expired {
        Some((seat, placeholder, Some("timeout")))
    } else {
        None
    }
}

/// Whether anything needs playing without a client now.
pub fn has_work(rec: &MatchRecord, now: u64, max_hands: Caps) -> bool {
    next_step(rec, now, max_hands).is_some()
}

/// Plays at most `max_steps` steps that need no client, then sets the
/// deadline of the seat to act. Returns the moves it made.
fn advance(
    rec: &mut MatchRecord,
    events: &mut Vec<events::StoredEvent>,
    now: u64,
    max_steps: usize,
    max_hands: Caps,
) -> Result<metrics::Applied, Error> {
    let mut applied = metrics::Applied::default();
    let mut engine_events: Vec<Event> = Vec::new();
    for _ in 0..max_steps {
        let Some((seat, step, reason)) = next_step(rec, now, max_hands) else {
            break;
        };
        let act = match (step, reason) {
            (Act::Action(_), Some(_)) => Act::Action(bot_action(rec, seat)?),
            (Act::Action(_), None) => Act::Action(Action::Deal),
            (other, _) => other,
        };
        applied.push(&act, reason);
        let bot_acted = match (reason, act) {
            (Some(reason), Act::Action(a)) => Some(events::bot_acted(
                seat,
                &rec.seats[seat as usize].bot,
                &a,
                reason,
            )),
            _ => None,
        };
        engine_events.clear();
        rec.game
            .perform(act.by(seat), &mut engine_events)
            .map_err(|e| Error::Internal(format!("house move refused: {e}")))?;
        let actor = match reason {
            Some("timeout") => Actor::Timeout,
            Some(_) => Actor::House,
            None => Actor::Client,
        };
        rec.note(act.by(seat), actor);
        rec.version += 1;
        events::push_step(rec, events, bot_acted, engine_events.drain(..));
        rec.deadline_ms = None;
    }
    if rec.deadline_ms.is_none() {
        rec.deadline_ms = match (rec.move_timeout_ms, rec.game.turn()) {
            (Some(ms), Some(_)) => Some(now + ms),
            _ => None,
        };
    }
    Ok(applied)
}

fn bot_action(rec: &MatchRecord, seat: Seat) -> Result<Action, Error> {
    let name = &rec.seats[seat as usize].bot;
    let bot = bots::by_name(name)
        .ok_or_else(|| Error::Internal(format!("stored seat names an unknown bot {name:?}")))?;
    let view = rec.game.view(Some(seat));
    if view.legal_actions.is_empty() {
        return Err(Error::Internal(
            "no legal action for the seat to act".into(),
        ));
    }
    let start = Instant::now();
    let action = bot.choose(&view, &mut bot_rng(rec));
    metrics::metrics()
        .bot_decision
        .with_label_values(&[name.as_str()])
        .observe(start.elapsed().as_secs_f64());
    Ok(action)
}
