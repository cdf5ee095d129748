//! The analysis of a finished match (docs/api.md, "Analysis"): every card
//! played valued by the whole-hand solver beside the best card of its
//! position ([`solve`]), and every bidding decision valued by the expert's
//! bid search ([`bids`]), computed once per match on this instance and
//! kept in a bounded in-process cache.
//!
//! Why in-process rather than stored by the scheduler: a read never
//! writes, and an analysis is a pure function of the finished match (its
//! rules, seed and moves), so any instance can compute it again and
//! nothing needs to survive a restart; keeping it out of the store keeps
//! the store's records and their size caps as they are. The first read of
//! a finished match starts the work and answers its progress; later reads
//! answer the progress, then the analysis.
//!
//! Bounds: the work runs on its own low-priority threads
//! ([`Limits::analysis_threads`], never an async worker), at most
//! [`Limits::analysis_queue`] analyses running or waiting (past it a read
//! is refused `Busy`), each within a node budget per card, a number of
//! playouts per bidding decision and a number of hands ([`Budget`]); at
//! most [`Limits::analysis_kept`] finished analyses are kept, the oldest
//! dropped first.

pub mod bids;
pub mod solve;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::bot_pool::BotPool;
use super::record::MatchRecord;
use super::{Error, Limits, Service};
use crate::rules::Phase;

pub use bids::BidValue;
pub use solve::{Budget, CardValue, HandAnalysis, MatchAnalysis, Solved};

/// What a read of a match's analysis finds.
#[derive(Clone, Debug)]
pub enum AnalysisRead {
    /// Being computed: `done` of `total` steps (cards and bidding
    /// decisions) valued so far.
    Computing {
        /// Steps done.
        done: u32,
        /// Steps to do.
        total: u32,
    },
    /// Done.
    Done(Arc<MatchAnalysis>),
}

/// One match's analysis, running or done.
enum Slot {
    Running { done: Arc<AtomicU32>, total: u32 },
    Done(Arc<MatchAnalysis>),
}

#[derive(Default)]
struct Slots {
    by_id: HashMap<String, Slot>,
    /// The finished analyses' ids, oldest first.
    finished: VecDeque<String>,
    running: usize,
}

impl Slots {
    /// Ends the running analysis of `id`: keeps its result, dropping the
    /// oldest finished analyses past `kept`; forgets a failure (logged) so
    /// that the next read starts it again.
    fn finish(&mut self, id: String, result: Result<MatchAnalysis, String>, kept: usize) {
        self.running = self.running.saturating_sub(1);
        match result {
            Ok(analysis) => {
                self.by_id
                    .insert(id.clone(), Slot::Done(Arc::new(analysis)));
                self.finished.push_back(id);
                while self.finished.len() > kept {
                    if let Some(old) = self.finished.pop_front() {
                        self.by_id.remove(&old);
                    }
                }
            }
            Err(e) => {
                tracing::error!(match_id = %id, error = %e, "match analysis failed");
                self.by_id.remove(&id);
            }
        }
    }
}

/// The analyses of this instance and the threads that compute them.
pub struct Analyses {
    slots: Arc<Mutex<Slots>>,
    pool: Arc<BotPool>,
    queue: usize,
    kept: usize,
    budget: Budget,
}

fn lock(slots: &Mutex<Slots>) -> MutexGuard<'_, Slots> {
    slots.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Analyses {
    /// The analyses within `limits`.
    ///
    /// # Errors
    /// `Internal` when the threads cannot be started.
    pub fn new(limits: &Limits) -> Result<Analyses, Error> {
        Ok(Analyses {
            slots: Arc::default(),
            pool: Arc::new(BotPool::new(limits.analysis_threads)?),
            queue: limits.analysis_queue.max(1),
            kept: limits.analysis_kept.max(1),
            budget: Budget {
                max_hands: limits.analysis_hands,
                nodes_per_card: limits.analysis_nodes_per_card,
                nodes_per_match: limits.analysis_nodes_per_match,
                playouts_per_bid: limits.analysis_playouts_per_bid,
            },
        })
    }

    /// The budget of each analysis.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The analysis of `rec` (a finished match): kept, running, or started now.
    fn read(&self, rec: Arc<MatchRecord>) -> Result<AnalysisRead, Error> {
        let mut slots = lock(&self.slots);
        match slots.by_id.get(&rec.id) {
            Some(Slot::Done(a)) => return Ok(AnalysisRead::Done(a.clone())),
            Some(Slot::Running { done, total }) => {
                let done = done.load(Ordering::Relaxed);
                return Ok(AnalysisRead::Computing {
                    done,
                    total: *total,
                });
            }
            None => {}
        }
        if slots.running >= self.queue {
            super::metrics::metrics().limit_hit("analysis_busy");
            return Err(Error::Busy(format!(
                "{} match analyses are being computed, the most at once; retry later",
                slots.running
            )));
        }
        let total = solve::steps(&rec.game, self.budget);
        let done = Arc::new(AtomicU32::new(0));
        slots.running += 1;
        let slot = Slot::Running {
            done: done.clone(),
            total,
        };
        slots.by_id.insert(rec.id.clone(), slot);
        drop(slots);
        self.spawn(rec, done);
        Ok(AnalysisRead::Computing { done: 0, total })
    }

    /// Computes `rec`'s analysis on the analysis threads, then keeps it.
    fn spawn(&self, rec: Arc<MatchRecord>, done: Arc<AtomicU32>) {
        let (slots, pool, budget, kept) = (
            self.slots.clone(),
            self.pool.clone(),
            self.budget,
            self.kept,
        );
        tokio::spawn(async move {
            let id = rec.id.clone();
            let work = move || {
                solve::analyze(&rec.game, budget, || {
                    done.fetch_add(1, Ordering::Relaxed);
                })
            };
            let result = match pool.run(work).await {
                Ok(analysis) => analysis,
                Err(e) => Err(e.to_string()),
            };
            lock(&slots).finish(id, result, kept);
        });
    }
}

impl Service {
    /// The analysis of a finished match, as far as it is computed; the
    /// first read starts it; and the match's number of seats. Never before
    /// the match is over: before that it would show the cards still hidden.
    ///
    /// # Errors
    /// `MatchNotFound`, `Unauthorized` for a wrong token, `MatchNotOver`,
    /// `Busy` when as many analyses as allowed are running,
    /// `StoreUnavailable`.
    pub async fn analysis(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<(AnalysisRead, usize), Error> {
        let rec = self.load(id).await?;
        self.caller_seat(&rec, token).await?;
        if rec.game.phase() != Phase::MatchOver {
            return Err(Error::MatchNotOver(
                "a match is analysed once it is over; its analysis would show cards still hidden"
                    .into(),
            ));
        }
        let seats = usize::from(rec.game.table().seats);
        Ok((self.analyses.read(rec)?, seats))
    }

    /// The budget each analysis runs with.
    pub fn analysis_budget(&self) -> Budget {
        self.analyses.budget()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Match, Rules};
    use crate::service::SeatKind;

    fn analyses(queue: usize, kept: usize) -> Analyses {
        let limits = Limits {
            analysis_queue: queue,
            analysis_kept: kept,
            ..Limits::default()
        };
        Analyses::new(&limits).unwrap()
    }

    fn finished(id: &str) -> Arc<MatchRecord> {
        let game = Match::new(Rules::default(), [5; 32]).unwrap();
        let mut rec = MatchRecord::sample(game, &[SeatKind::Bot; 4], false);
        rec.id = id.into();
        Arc::new(rec)
    }

    fn nothing() -> MatchAnalysis {
        let budget = Budget {
            max_hands: 1,
            nodes_per_card: 1,
            nodes_per_match: 1,
            playouts_per_bid: 0,
        };
        MatchAnalysis {
            hands: Vec::new(),
            hands_played: 0,
            budget,
            nodes: 0,
        }
    }

    #[test]
    fn a_full_queue_refuses_a_new_analysis_and_answers_a_running_one() {
        let a = analyses(1, 8);
        {
            let mut slots = lock(&a.slots);
            slots.running = 1;
            let done = Arc::new(AtomicU32::new(3));
            slots
                .by_id
                .insert("a".into(), Slot::Running { done, total: 9 });
        }
        let busy = a.read(finished("b"));
        assert!(matches!(busy, Err(Error::Busy(_))), "{busy:?}");
        let running = a.read(finished("a")).unwrap();
        assert!(
            matches!(running, AnalysisRead::Computing { done: 3, total: 9 }),
            "{running:?}"
        );
        // Its end frees the queue.
        lock(&a.slots).finish("a".into(), Ok(nothing()), 8);
        assert_eq!(lock(&a.slots).running, 0);
        assert!(matches!(a.read(finished("a")), Ok(AnalysisRead::Done(_))));
    }

    #[test]
    fn the_oldest_finished_analyses_are_dropped_past_the_cap_and_a_failure_is_forgotten() {
        let mut slots = Slots::default();
        for id in ["a", "b", "c"] {
            slots.running += 1;
            slots.finish(id.into(), Ok(nothing()), 2);
        }
        assert!(!slots.by_id.contains_key("a"));
        assert!(slots.by_id.contains_key("b") && slots.by_id.contains_key("c"));
        slots.running += 1;
        slots.by_id.insert(
            "d".into(),
            Slot::Running {
                done: Arc::default(),
                total: 1,
            },
        );
        slots.finish("d".into(), Err("a bug".into()), 2);
        assert!(!slots.by_id.contains_key("d"));
        assert_eq!((slots.running, slots.finished.len()), (0, 2));
    }
}
