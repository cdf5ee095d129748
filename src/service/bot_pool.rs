//! The threads CPU-heavy house-bot work runs on: their own, at a lower
//! scheduling priority than the request workers.
//!
//! A Monte Carlo decision takes milliseconds of pure computation. Run on
//! the async workers it would hold a worker; run on threads of the same
//! priority it still competes for the same cores, so on a small machine
//! every request waits behind it. These threads are niced (+10 on Linux):
//! the kernel runs the request workers first whenever both are ready, and
//! the bots use what is left. How many batches run at once is bounded by
//! the driver's semaphores, not here.

use std::panic::{AssertUnwindSafe, catch_unwind};

use tokio::sync::oneshot;

use super::Error;

/// How much lower than normal the bot threads run (a `nice` increment).
const NICE: i32 = 10;

/// A fixed set of low-priority threads.
pub struct BotPool {
    pool: rayon::ThreadPool,
}

impl BotPool {
    /// A pool of `threads` threads (at least one).
    ///
    /// # Errors
    /// `Internal` when the operating system refuses to start a thread.
    pub fn new(threads: usize) -> Result<BotPool, Error> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("house-bot-{i}"))
            .start_handler(|_| lower_priority())
            .build()
            .map_err(|e| Error::Internal(format!("cannot start the bot threads: {e}")))?;
        Ok(BotPool { pool })
    }

    /// Runs `work` on a pool thread and waits for it without holding an
    /// async worker.
    ///
    /// # Errors
    /// `Internal` when `work` panics (a bug; the pool keeps running).
    pub async fn run<T, F>(&self, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            // The caller may have gone away; then the answer is dropped.
            let _ = tx.send(catch_unwind(AssertUnwindSafe(work)));
        });
        match rx.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(_)) => Err(Error::Internal("a house-bot task panicked".into())),
            Err(_) => Err(Error::Internal("a house-bot task was dropped".into())),
        }
    }
}

/// Lowers the calling thread's scheduling priority by [`NICE`] (on Linux a
/// nice value belongs to each thread, not to the whole process).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `nice` changes only the calling thread's priority; a
        // failure only leaves the thread at its current priority.
        let failed = unsafe {
            *libc::__errno_location() = 0;
            libc::nice(NICE) == -1 && *libc::__errno_location() != 0
        };
        if failed {
            tracing::warn!("house-bot thread keeps its priority: nice failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_a_lower_priority_thread_and_a_panic_is_an_error() {
        // SAFETY: reads the calling thread's own priority (new threads start
        // with their creator's).
        let base = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let pool = BotPool::new(1).unwrap();
        let (name, nice) = pool
            .run(|| {
                let name = std::thread::current().name().map(str::to_string);
                // SAFETY: the same, on the pool's thread.
                let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
                (name, nice)
            })
            .await
            .unwrap();
        assert_eq!(name.as_deref(), Some("house-bot-0"));
        assert!(nice >= (base + NICE).min(19), "nice {nice}, base {base}");
        let refused = pool.run(|| -> u8 { panic!("boom") }).await;
        assert!(matches!(refused, Err(Error::Internal(_))), "{refused:?}");
        assert_eq!(
            pool.run(|| 7).await.unwrap(),
            7,
            "the pool survives a panic"
        );
    }
}
