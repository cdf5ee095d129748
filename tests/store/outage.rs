//! The Redis store while its server goes away and comes back: requests fail
//! with `StoreError::Unavailable` instead of hanging, and the same store
//! instance works again once Redis is back, long-poll notifications included.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use botifarra::store::{Commit, CommitOutcome, MatchStore, RedisStore, StoreError};

use crate::backends::redis::RedisProcess;

const TTL: Duration = Duration::from_secs(600);

/// Guards against a hang only; the assertions never depend on durations.
async fn bounded<T>(what: &str, op: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(30), op)
        .await
        .unwrap_or_else(|_| panic!("{what} hung while Redis was down"))
}

fn next(expected: u64, events: &[String]) -> Commit<'_> {
    Commit {
        expected_version: expected,
        new_version: expected + 1,
        state: Some("s"),
        events,
        idempotency: None,
    }
}

fn unavailable<T>(result: &Result<T, StoreError>) -> bool {
    matches!(result, Err(StoreError::Unavailable(_)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_store_fails_fast_while_down_and_recovers_by_itself() {
    let mut server = RedisProcess::start();
    let store = RedisStore::connect(&server.url(), TTL)
        .await
        .unwrap()
        .with_recheck_interval(Duration::from_secs(120));
    let store = Arc::new(store);
    let evs = vec!["{}".to_owned()];
    assert!(store.create("m1", 1, "s", &evs).await.unwrap());

    server.stop();
    let load = bounded("load", store.load("m1")).await;
    assert!(unavailable(&load), "load: {load:?}");
    let commit = bounded("commit", store.commit("m1", next(1, &evs))).await;
    assert!(unavailable(&commit), "commit: {commit:?}");
    assert!(unavailable(&bounded("ping", store.ping()).await));
    let wait = store.wait_events("m1", 1, Duration::from_secs(1));
    assert!(unavailable(&bounded("wait_events", wait).await));

    server.restart();
    // The first request after the restart may still see the old failure;
    // the connection manager reconnects in the background.
    let mut recovered = false;
    for _ in 0..100 {
        if store.ping().await.is_ok() {
            recovered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(recovered, "the store never reconnected");
    // The restarted server is empty (no persistence): start a new match.
    assert!(store.create("m2", 1, "s", &evs).await.unwrap());
    let out = store.commit("m2", next(1, &evs)).await.unwrap();
    assert_eq!(out, CommitOutcome::Committed { first_seq: 2 });

    // The pub/sub task resubscribes too: a commit from another instance
    // wakes a long poll, with re-reading pushed past the wait's timeout.
    // It may resubscribe a moment after the restart, hence a few rounds.
    let other = RedisStore::connect(&server.url(), TTL).await.unwrap();
    let mut woken = false;
    // Each commit adds one event, so version and last seq stay equal.
    for n in 2..22 {
        let waiter = {
            let store = Arc::clone(&store);
            tokio::spawn(async move { store.wait_events("m2", n, Duration::from_secs(2)).await })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        other.commit("m2", next(n, &evs)).await.unwrap();
        if waiter.await.unwrap().unwrap() > n {
            woken = true;
            break;
        }
    }
    assert!(woken, "long polls were never woken after the restart");
}
