//! The two stores the api and store suites run on, shared by both suites
//! (`#[path = "../backends/mod.rs"] mod backends;` in their `main.rs`).
//!
//! A store-parametrized test is an async fn written once, taking a
//! [`Backend`] or a ready `Arc<dyn MatchStore>`; [`both_stores!`] runs it
//! on each store as `memory::NAME` and `redis::NAME`, so a failure names
//! its store. Redis is never skipped: [`redis::redis_url`] uses
//! `REDIS_URL` or starts a throwaway `redis-server`, and fails the test
//! with a clear message when neither is possible.

#![allow(dead_code)]

pub mod cluster;
pub mod redis;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use botifarra::store::{MatchStore, MemoryLimits, MemoryStore, RedisStore};

/// Which store a test uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The in-memory store.
    Memory,
    /// Redis: `REDIS_URL`, or a throwaway server the tests start.
    Redis,
    /// A throwaway three-node Redis Cluster the tests start.
    Cluster,
}

impl Backend {
    /// The store's `kind()`: `memory` or `redis`.
    pub fn kind(self) -> &'static str {
        match self {
            Backend::Memory => "memory",
            Backend::Redis => "redis",
            Backend::Cluster => "redis-cluster",
        }
    }
}

/// Makes the store for `backend`, on `url` for Redis (by default the
/// shared test server of [`redis::redis_url`]).
///
/// On Redis its schedule of due work is its own: every test of a run
/// shares one Redis, and a scheduler of one test would otherwise play (or,
/// when its test ends mid-step, hold for a lease) another test's due work.
/// Two instances that must share due work share one store, or use
/// [`store_sharing`].
pub async fn store_for(backend: Backend, redis_url: Option<String>) -> Arc<dyn MatchStore> {
    let name = format!("test:due:{}", rand_name());
    let store = match backend {
        Backend::Memory => Arc::new(MemoryStore::new()),
        _ => redis_store(backend, redis_url, HOUR, &name).await,
    };
    assert_eq!(store.kind(), backend.kind());
    store
}

/// A store on `backend` keeping its schedule of due work under `name`, to
/// share due work with the other stores given that name.
pub async fn store_sharing(backend: Backend, name: &str) -> Arc<dyn MatchStore> {
    assert_ne!(
        backend,
        Backend::Memory,
        "memory stores share nothing; share one store instead"
    );
    redis_store(backend, None, HOUR, name).await
}

/// How long the test stores keep an unwritten match.
const HOUR: Duration = Duration::from_secs(3600);

/// A Redis or Redis Cluster store (on `url`, else the shared test server)
/// forgetting a match `ttl` after its last write, scheduling under `name`.
async fn redis_store(
    backend: Backend,
    url: Option<String>,
    ttl: Duration,
    name: &str,
) -> Arc<dyn MatchStore> {
    let store = match backend {
        Backend::Cluster => RedisStore::connect_cluster(&cluster::cluster_urls(), ttl)
            .await
            .expect("connect to the test Redis Cluster"),
        _ => RedisStore::connect(&url.unwrap_or_else(redis::redis_url), ttl)
            .await
            .expect("connect to the test Redis"),
    };
    Arc::new(store.with_schedule_name(name))
}

/// A name no other test of this run uses.
fn rand_name() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A store on `backend` that forgets a match `ttl` after its last write.
pub async fn store_with_ttl(backend: Backend, ttl: Duration) -> Arc<dyn MatchStore> {
    match backend {
        Backend::Memory => Arc::new(MemoryStore::with_limits(MemoryLimits {
            ttl,
            ..MemoryLimits::default()
        })),
        _ => redis_store(backend, None, ttl, &format!("test:due:{}", rand_name())).await,
    }
}

/// What a store-parametrized test takes: the [`Backend`] itself (to start
/// a server on it), or a store on it.
pub trait OnBackend: Sized {
    /// The value for `backend`.
    fn on(backend: Backend) -> impl Future<Output = Self>;
}

impl OnBackend for Backend {
    async fn on(backend: Backend) -> Self {
        backend
    }
}

impl OnBackend for Arc<dyn MatchStore> {
    async fn on(backend: Backend) -> Self {
        store_for(backend, None).await
    }
}

/// Runs `test` on `backend`; used by [`both_stores!`].
pub async fn run<T, F>(backend: Backend, test: impl FnOnce(T) -> F)
where
    T: OnBackend,
    F: Future<Output = ()>,
{
    test(T::on(backend).await).await;
}

/// Runs each named async fn of the calling module on both stores, as the
/// tests `memory::NAME` and `redis::NAME`. Each fn takes one argument: a
/// [`Backend`] or an `Arc<dyn MatchStore>`.
///
/// ```ignore
/// async fn whole_match_with_house_bots(backend: Backend) { … }
/// both_stores!(whole_match_with_house_bots);
/// ```
macro_rules! both_stores {
    ($($test:ident),+ $(,)?) => {
        /// The store-parametrized tests of this module on the in-memory store.
        mod memory {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    $crate::backends::run($crate::backends::Backend::Memory, super::$test).await;
                }
            )+
        }
        /// The store-parametrized tests of this module on Redis.
        mod redis {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    $crate::backends::run($crate::backends::Backend::Redis, super::$test).await;
                }
            )+
        }
    };
}
pub(crate) use both_stores;

/// [`both_stores!`], and the same tests on a Redis Cluster as
/// `cluster::NAME`.
#[allow(unused_macros)]
macro_rules! all_stores {
    ($($test:ident),+ $(,)?) => {
        $crate::backends::both_stores!($($test),+);
        /// The store-parametrized tests of this module on a Redis Cluster.
        mod cluster {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    $crate::backends::run($crate::backends::Backend::Cluster, super::$test).await;
                }
            )+
        }
    };
}
#[allow(unused_imports)]
pub(crate) use all_stores;
