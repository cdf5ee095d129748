//! Writes that wait for a replica (`RedisStore::with_replica_wait`): with
//! the replica up a match is created and committed as usual, and the
//! replica holds each write when it is acknowledged; with the replica
//! gone a write is answered `Unavailable` (retryable) and a retry with the
//! same idempotency key finds the first answer. The cost of the wait is
//! printed (never asserted).

use std::time::{Duration, Instant};

use botifarra::store::{Commit, CommitOutcome, MatchStore, RedisStore, ReplicaWait, StoreError};

use crate::backends::redis::RedisProcess;

const TTL: Duration = Duration::from_secs(600);

fn commit<'a>(v: u64, events: &'a [String], key: Option<(&'a str, &'a str)>) -> Commit<'a> {
    Commit {
        expected_version: v,
        new_version: v + 1,
        state: Some("s"),
        events,
        idempotency: key,
    }
}

/// The replica's copy of `key`'s type (`none` until it has it).
async fn on_replica(replica: &RedisProcess, key: &str) -> String {
    let client = redis::Client::open(replica.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    redis::cmd("TYPE")
        .arg(key)
        .query_async(&mut conn)
        .await
        .unwrap()
}

/// Waits until the replica has synced with its master.
async fn until_synced(master: &RedisProcess) {
    let client = redis::Client::open(master.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let info: String = redis::cmd("INFO")
            .arg("replication")
            .query_async(&mut conn)
            .await
            .unwrap();
        if info.contains("state=online") {
            return;
        }
        assert!(Instant::now() < end, "the replica never synced: {info}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn mean_commit(store: &RedisStore, id: &str, from: u64, n: u64) -> Duration {
    let events = vec!["{}".to_string()];
    let start = Instant::now();
    for v in from..from + n {
        let done = store.commit(id, commit(v, &events, None)).await.unwrap();
        assert!(matches!(done, CommitOutcome::Committed { .. }), "{done:?}");
    }
    start.elapsed() / u32::try_from(n).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_wait_for_a_replica_and_fail_retryably_without_one() {
    let master = RedisProcess::start();
    let mut replica = RedisProcess::start_replica_of(master.port());
    until_synced(&master).await;
    let plain = RedisStore::connect(&master.url(), TTL).await.unwrap();
    // The default policy finds the replica and waits for it.
    let store = RedisStore::connect(&master.url(), TTL)
        .await
        .unwrap()
        .with_replica_policy(ReplicaWait::Auto, Duration::from_millis(500))
        .await
        .unwrap();
    assert_eq!(store.replicas_waited_for(), 1);

    let id = format!("repl{}", std::process::id());
    assert!(
        store
            .create(&id, 1, "s", &["{}".to_string()])
            .await
            .unwrap()
    );
    assert_eq!(
        on_replica(&replica, &format!("bf:{{{id}}}:state")).await,
        "hash",
        "acknowledged: the replica has it"
    );
    let events = vec!["{}".to_string()];
    let done = store.commit(&id, commit(1, &events, None)).await.unwrap();
    assert!(matches!(done, CommitOutcome::Committed { .. }), "{done:?}");

    let waited = mean_commit(&store, &id, 2, 200).await;
    let unwaited = mean_commit(&plain, &id, 202, 200).await;
    println!("commit with WAIT 1: {waited:?} a write; without: {unwaited:?} (200 each)");

    // The replica goes: a write is made on the master, but not confirmed.
    replica.stop();
    let keyed = store
        .commit(&id, commit(402, &events, Some(("seat0:k", "answer"))))
        .await;
    assert!(
        matches!(keyed, Err(StoreError::Unavailable(_))),
        "unconfirmed writes are retryable errors: {keyed:?}"
    );
    // The retry (same key) finds the first answer: nothing doubled.
    let again = plain
        .commit(&id, commit(402, &events, Some(("seat0:k", "answer"))))
        .await
        .unwrap();
    assert_eq!(
        again,
        CommitOutcome::Duplicate {
            response: "answer".into()
        }
    );
    assert_eq!(plain.load(&id).await.unwrap().unwrap().version, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_policy_waits_for_nothing_without_replicas() {
    let lone = RedisProcess::start();
    let store = RedisStore::connect(&lone.url(), TTL)
        .await
        .unwrap()
        .with_replica_policy(ReplicaWait::Auto, Duration::from_millis(100))
        .await
        .unwrap();
    assert_eq!(store.replicas_waited_for(), 0, "no replica: no wait");
    assert!(
        store
            .create("lone", 1, "s", &["{}".to_string()])
            .await
            .unwrap()
    );
    let fixed = RedisStore::connect(&lone.url(), TTL)
        .await
        .unwrap()
        .with_replica_policy(ReplicaWait::Replicas(2), Duration::from_millis(100))
        .await
        .unwrap();
    assert_eq!(fixed.replicas_waited_for(), 2, "a number is taken as it is");
    assert_eq!("auto".parse::<ReplicaWait>(), Ok(ReplicaWait::Auto));
    assert_eq!("3".parse::<ReplicaWait>(), Ok(ReplicaWait::Replicas(3)));
    assert!("some".parse::<ReplicaWait>().is_err());
}
