//! The `MatchStore` contract, run against every backend: each test below is
//! an async fn taking the store, run on `MemoryStore`, on `RedisStore` over
//! one Redis and over a Redis Cluster by `all_stores!`. Redis-only
//! properties (several instances, key layout, TTL) follow at the end.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use botifarra::store::{Commit, CommitOutcome, MatchStore, RedisStore, StoreError};

use crate::backends::all_stores;
use crate::backends::redis::redis_url;

const TTL: Duration = Duration::from_secs(3600);

/// A match id no other test (or earlier run on a shared Redis) uses.
pub fn new_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("t{}-{nanos:x}-{n}", std::process::id())
}

fn events(prefix: &str, n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| format!(r#"{{"e":"{prefix}{i}"}}"#))
        .collect()
}

fn commit<'a>(expected: u64, state: &'a str, events: &'a [String]) -> Commit<'a> {
    Commit {
        expected_version: expected,
        new_version: expected + 1,
        state: Some(state),
        events,
        idempotency: None,
    }
}

async fn connect_redis() -> RedisStore {
    RedisStore::connect(&redis_url(), TTL)
        .await
        .expect("connecting to the test Redis")
}

/// A match at version 1 with `n` events; returns its id.
async fn new_match(store: &dyn MatchStore, n: usize) -> String {
    let id = new_id();
    assert!(store.create(&id, 1, "s1", &events("c", n)).await.unwrap());
    id
}

async fn create_then_load_returns_the_state(store: Arc<dyn MatchStore>) {
    let id = new_id();
    assert!(store.create(&id, 7, "{\"a\":1}", &[]).await.unwrap());
    let snap = store.load(&id).await.unwrap().expect("created match");
    assert_eq!((snap.version, snap.state.as_str()), (7, "{\"a\":1}"));
    assert_eq!(store.last_seq(&id).await.unwrap(), 0);
}

async fn a_log_structured_match_loads_with_its_log(store: Arc<dyn MatchStore>) {
    // A state not beginning with `{` is written once; commits append to
    // the log and keep it, and a load returns the log with it.
    let id = new_id();
    assert!(
        store
            .create(&id, 1, "1setup", &events("c", 1))
            .await
            .unwrap()
    );
    let entries = events("m", 2);
    let keep = Commit {
        state: None,
        ..commit(1, "unused", &entries[..1])
    };
    assert_eq!(
        store.commit(&id, keep).await.unwrap(),
        CommitOutcome::Committed { first_seq: 2 }
    );
    let jump = Commit {
        state: None,
        new_version: 4,
        ..commit(2, "unused", &entries[1..])
    };
    store.commit(&id, jump).await.unwrap();
    let snap = store.load(&id).await.unwrap().unwrap();
    assert_eq!((snap.version, snap.state.as_str()), (4, "1setup"));
    assert_eq!(snap.log, [events("c", 1), entries].concat());
    // A stale commit appends nothing.
    let late = events("late", 1);
    let stale = Commit {
        state: None,
        ..commit(1, "unused", &late)
    };
    assert_eq!(
        store.commit(&id, stale).await.unwrap(),
        CommitOutcome::Conflict { current_version: 4 }
    );
    assert_eq!(store.load(&id).await.unwrap().unwrap().log.len(), 3);
    // A whole snapshot comes without its list.
    let id = new_id();
    assert!(store.create(&id, 1, "{}", &events("c", 3)).await.unwrap());
    let snap = store.load(&id).await.unwrap().unwrap();
    assert!(snap.log.is_empty());
    assert_eq!(store.last_seq(&id).await.unwrap(), 3);
}

async fn load_tail_returns_the_log_after_what_the_reader_holds(store: Arc<dyn MatchStore>) {
    // A log-structured match whose entries look like a service's log.
    let id = new_id();
    let log: Vec<String> = ["Ab", "Cd~17", "Ef"].map(String::from).to_vec();
    assert!(store.create(&id, 1, "1setup", &log[..1]).await.unwrap());
    for (v, entry) in [(1, &log[1..2]), (2, &log[2..])] {
        let c = Commit {
            state: None,
            ..commit(v, "unused", entry)
        };
        store.commit(&id, c).await.unwrap();
    }
    let tail = store.load_tail(&id, 1, false).await.unwrap().unwrap();
    assert_eq!((tail.version, tail.state.as_str()), (3, ""));
    assert_eq!(tail.log, log[1..]);
    let with_state = store.load_tail(&id, 2, true).await.unwrap().unwrap();
    assert_eq!(
        (with_state.state.as_str(), &with_state.log[..]),
        ("1setup", &log[2..])
    );
    assert!(
        store
            .load_tail(&id, 3, false)
            .await
            .unwrap()
            .unwrap()
            .log
            .is_empty()
    );
    // A whole snapshot comes with its state, without its list, asked or not.
    let id = new_id();
    assert!(
        store
            .create(&id, 5, "{\"w\":1}", &events("c", 2))
            .await
            .unwrap()
    );
    let snap = store.load_tail(&id, 1, false).await.unwrap().unwrap();
    assert_eq!((snap.version, snap.state.as_str()), (5, "{\"w\":1}"));
    assert!(snap.log.is_empty());
    assert!(
        store
            .load_tail(&new_id(), 0, false)
            .await
            .unwrap()
            .is_none()
    );
}

async fn creating_an_existing_id_changes_nothing(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 2).await;
    assert!(
        !store
            .create(&id, 9, "other", &events("x", 5))
            .await
            .unwrap()
    );
    let snap = store.load(&id).await.unwrap().unwrap();
    assert_eq!((snap.version, snap.state.as_str()), (1, "s1"));
    assert_eq!(store.last_seq(&id).await.unwrap(), 2);
}

async fn commit_advances_version_and_numbers_events(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 2).await;
    let evs = events("a", 3);
    let out = store.commit(&id, commit(1, "s2", &evs)).await.unwrap();
    assert_eq!(out, CommitOutcome::Committed { first_seq: 3 });
    let snap = store.load(&id).await.unwrap().unwrap();
    assert_eq!((snap.version, snap.state.as_str()), (2, "s2"));
    let all = store.events_after(&id, 0, 100).await.unwrap();
    let seqs: Vec<u64> = all.iter().map(|(s, _)| *s).collect();
    assert_eq!(seqs, [1, 2, 3, 4, 5]);
    assert_eq!(all[2].1, evs[0]);
    assert_eq!(all[4].1, evs[2]);
    assert_eq!(store.last_seq(&id).await.unwrap(), 5);

    // Several internal steps folded into one commit jump the version.
    let jump = Commit {
        new_version: 5,
        ..commit(2, "s5", &[])
    };
    let out = store.commit(&id, jump).await.unwrap();
    assert_eq!(out, CommitOutcome::Committed { first_seq: 6 });
    assert_eq!(store.load(&id).await.unwrap().unwrap().version, 5);
    assert_eq!(store.last_seq(&id).await.unwrap(), 5);
}

async fn stale_commit_conflicts_and_changes_nothing(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 1).await;
    store.commit(&id, commit(1, "s2", &[])).await.unwrap();
    let evs = events("late", 2);
    let out = store.commit(&id, commit(1, "stale", &evs)).await.unwrap();
    assert_eq!(out, CommitOutcome::Conflict { current_version: 2 });
    let snap = store.load(&id).await.unwrap().unwrap();
    assert_eq!((snap.version, snap.state.as_str()), (2, "s2"));
    assert_eq!(store.last_seq(&id).await.unwrap(), 1);
}

async fn idempotent_retry_returns_the_first_response(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 0).await;
    let evs = events("p", 1);
    let first = Commit {
        idempotency: Some(("seat2:abc", "response-1")),
        ..commit(1, "s2", &evs)
    };
    let out = store.commit(&id, first).await.unwrap();
    assert_eq!(out, CommitOutcome::Committed { first_seq: 1 });

    let retry = Commit {
        idempotency: Some(("seat2:abc", "response-2")),
        ..commit(2, "s3", &evs)
    };
    let out = store.commit(&id, retry).await.unwrap();
    let expected = CommitOutcome::Duplicate {
        response: "response-1".into(),
    };
    assert_eq!(out, expected);
    let snap = store.load(&id).await.unwrap().unwrap();
    assert_eq!((snap.version, snap.state.as_str()), (2, "s2"));
    assert_eq!(store.last_seq(&id).await.unwrap(), 1);
    let remembered = store.idempotent_response(&id, "seat2:abc").await.unwrap();
    assert_eq!(remembered.as_deref(), Some("response-1"));
    assert_eq!(
        store.idempotent_response(&id, "seat1:abc").await.unwrap(),
        None
    );

    // The same key from another seat is another key.
    let other = Commit {
        idempotency: Some(("seat1:abc", "response-3")),
        ..commit(2, "s3", &[])
    };
    let out = store.commit(&id, other).await.unwrap();
    assert_eq!(out, CommitOutcome::Committed { first_seq: 2 });
}

async fn only_the_latest_key_of_each_slot_is_kept(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 0).await;
    let keyed = |v: u64, key: &'static str| Commit {
        idempotency: Some((key, key)),
        ..commit(v, "s", &[])
    };
    for (v, key) in [(1, "seat1:a"), (2, "seat2:x"), (3, "seat1:b")] {
        let out = store.commit(&id, keyed(v, key)).await.unwrap();
        assert!(matches!(out, CommitOutcome::Committed { .. }), "{out:?}");
    }
    assert_eq!(
        store.idempotent_response(&id, "seat1:a").await.unwrap(),
        None,
        "an older key of the slot is dropped"
    );
    assert_eq!(
        store
            .idempotent_response(&id, "seat1:b")
            .await
            .unwrap()
            .as_deref(),
        Some("seat1:b")
    );
    assert_eq!(
        store
            .idempotent_response(&id, "seat2:x")
            .await
            .unwrap()
            .as_deref(),
        Some("seat2:x")
    );
    // The latest key still deduplicates.
    let again = store.commit(&id, keyed(4, "seat1:b")).await.unwrap();
    assert_eq!(
        again,
        CommitOutcome::Duplicate {
            response: "seat1:b".into()
        }
    );
}

async fn missing_match_is_not_found(store: Arc<dyn MatchStore>) {
    let id = new_id();
    assert_eq!(store.load(&id).await.unwrap(), None);
    let err = store.commit(&id, commit(1, "s", &[])).await.unwrap_err();
    assert!(matches!(err, StoreError::NotFound), "{err:?}");
    let err = store.events_after(&id, 0, 10).await.unwrap_err();
    assert!(matches!(err, StoreError::NotFound), "{err:?}");
    let err = store.last_seq(&id).await.unwrap_err();
    assert!(matches!(err, StoreError::NotFound), "{err:?}");
    let err = store
        .wait_events(&id, 0, Duration::from_millis(50))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound), "{err:?}");
    assert_eq!(store.idempotent_response(&id, "k").await.unwrap(), None);
}

async fn events_after_pages_with_limit(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 0).await;
    let evs = events("e", 10);
    store.commit(&id, commit(1, "s2", &evs)).await.unwrap();
    let seqs = |page: Vec<(u64, String)>| page.into_iter().map(|(s, _)| s).collect::<Vec<_>>();
    assert_eq!(
        seqs(store.events_after(&id, 0, 4).await.unwrap()),
        [1, 2, 3, 4]
    );
    assert_eq!(
        seqs(store.events_after(&id, 4, 4).await.unwrap()),
        [5, 6, 7, 8]
    );
    assert_eq!(seqs(store.events_after(&id, 8, 4).await.unwrap()), [9, 10]);
    assert!(store.events_after(&id, 10, 4).await.unwrap().is_empty());
    assert!(store.events_after(&id, 99, 4).await.unwrap().is_empty());
    assert!(store.events_after(&id, 0, 0).await.unwrap().is_empty());
    let page = store.events_after(&id, 6, 1).await.unwrap();
    assert_eq!(page, [(7, evs[6].clone())]);
}

async fn a_large_commit_keeps_every_event_in_order(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 1).await;
    let evs = events("big", 1200);
    let out = store.commit(&id, commit(1, "s2", &evs)).await.unwrap();
    assert_eq!(out, CommitOutcome::Committed { first_seq: 2 });
    assert_eq!(store.last_seq(&id).await.unwrap(), 1201);
    let tail = store.events_after(&id, 1199, 10).await.unwrap();
    assert_eq!(tail, [(1200, evs[1198].clone()), (1201, evs[1199].clone())]);
}

async fn wait_events_wakes_when_another_task_commits(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 2).await;
    let waiter = {
        let (store, id) = (Arc::clone(&store), id.clone());
        tokio::spawn(async move { store.wait_events(&id, 2, Duration::from_secs(20)).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let evs = events("w", 2);
    store.commit(&id, commit(1, "s2", &evs)).await.unwrap();
    let seen = waiter.await.unwrap().unwrap();
    assert!(seen > 2, "woken with last seq {seen}");
}

async fn wait_events_returns_at_once_when_events_exist(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 3).await;
    let seen = store
        .wait_events(&id, 1, Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(seen, 3);
}

async fn wait_events_times_out_without_new_events(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 2).await;
    let seen = store
        .wait_events(&id, 2, Duration::from_millis(300))
        .await
        .unwrap();
    assert!(seen <= 2, "no event was added, yet saw {seen}");
}

async fn concurrent_commits_on_one_version_let_exactly_one_win(store: Arc<dyn MatchStore>) {
    let id = new_match(&*store, 1).await;
    let tasks: Vec<_> = (0..32)
        .map(|i| {
            let (store, id) = (Arc::clone(&store), id.clone());
            tokio::spawn(async move {
                let state = format!("winner-{i}");
                let evs = vec![format!("event-{i}")];
                let out = store.commit(&id, commit(1, &state, &evs)).await.unwrap();
                (i, out)
            })
        })
        .collect();
    let mut winners = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            (i, CommitOutcome::Committed { first_seq: 2 }) => winners.push(i),
            (_, CommitOutcome::Conflict { current_version: 2 }) => {}
            (i, other) => panic!("commit {i}: unexpected {other:?}"),
        }
    }
    assert_eq!(winners.len(), 1, "winners: {winners:?}");
    let winner = winners[0];
    let snap = store.load(&id).await.unwrap().unwrap();
    assert_eq!(snap.version, 2);
    assert_eq!(snap.state, format!("winner-{winner}"));
    let evs = store.events_after(&id, 0, 100).await.unwrap();
    assert_eq!(evs.len(), 2);
    assert_eq!(evs[1], (2, format!("event-{winner}")));
}

/// The ids among `claims` that start with `prefix`, sorted: other tests'
/// entries may share the backend.
fn claimed(claims: &[botifarra::store::DueClaim], prefix: &str) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = claims
        .iter()
        .filter(|c| c.id.starts_with(prefix))
        .map(|c| (c.id[prefix.len()..].to_string(), c.lease_until_ms))
        .collect();
    v.sort();
    v
}

// Times here are a few seconds after the epoch, far before any real
// schedule's, so that no other user of the backend is in the way; and a
// claim takes whatever is due, so the two parts run one after the other.
async fn the_schedule_is_never_late_and_leases_what_it_hands_out(store: Arc<dyn MatchStore>) {
    leases_and_never_late(store.clone()).await;
    racing_claims_hand_out_each_due_match_once(store).await;
}

async fn leases_and_never_late(store: Arc<dyn MatchStore>) {
    let p = format!("{}-", new_id());
    let id = |s: &str| format!("{p}{s}");
    store.schedule(&id("a"), 1_100).await.unwrap();
    store.schedule(&id("b"), 1_300).await.unwrap();
    store.schedule(&id("a"), 1_200).await.unwrap();
    let got = store.claim_due(1_150, 1_000, 100).await.unwrap();
    assert_eq!(
        claimed(&got, &p),
        [("a".to_string(), 2_150)],
        "a moved no later"
    );
    let a = got.iter().find(|c| c.id == id("a")).unwrap();
    assert_eq!(a.due_ms, 1_100, "a claim tells when it was due");
    let got = store.claim_due(1_160, 1_000, 100).await.unwrap();
    assert!(claimed(&got, &p).is_empty(), "a is leased, b not due");

    // Scheduled earlier while leased: the claimer's settle leaves it be.
    store.schedule(&id("a"), 1_120).await.unwrap();
    assert!(!store.settle_due(&id("a"), 2_150, None).await.unwrap());
    let got = store.claim_due(1_170, 1_000, 100).await.unwrap();
    assert_eq!(claimed(&got, &p), [("a".to_string(), 2_170)]);
    assert!(store.settle_due(&id("a"), 2_170, None).await.unwrap());

    let got = store.claim_due(1_400, 1_000, 100).await.unwrap();
    assert_eq!(
        claimed(&got, &p),
        [("b".to_string(), 2_400)],
        "a was removed"
    );
    assert!(
        store
            .settle_due(&id("b"), 2_400, Some(1_500))
            .await
            .unwrap()
    );
    assert!(claimed(&store.claim_due(1_450, 10, 100).await.unwrap(), &p).is_empty());
    let got = store.claim_due(1_500, 10, 100).await.unwrap();
    assert_eq!(claimed(&got, &p), [("b".to_string(), 1_510)]);
    // A lease that ran out is handed out again (its claimer died).
    let got = store.claim_due(1_510, 10, 100).await.unwrap();
    assert_eq!(claimed(&got, &p), [("b".to_string(), 1_520)]);
    assert!(store.settle_due(&id("b"), 1_520, None).await.unwrap());
}

async fn racing_claims_hand_out_each_due_match_once(store: Arc<dyn MatchStore>) {
    let p = format!("{}-", new_id());
    for i in 0..40 {
        store.schedule(&format!("{p}{i:02}"), 3_000).await.unwrap();
    }
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut all = Vec::new();
            for _ in 0..4 {
                all.extend(store.claim_due(3_050, 60_000, 3).await.unwrap());
            }
            all
        }));
    }
    let mut ids = Vec::new();
    for t in tasks {
        ids.extend(claimed(&t.await.unwrap(), &p).into_iter().map(|(i, _)| i));
    }
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "a match was handed out twice");
    let rest = claimed(&store.claim_due(3_050, 60_000, 100).await.unwrap(), &p);
    assert_eq!(n + rest.len(), 40, "every due match is handed out");
    for (i, lease) in rest {
        assert!(
            store
                .settle_due(&format!("{p}{i}"), lease, None)
                .await
                .unwrap()
        );
    }
}

async fn ping_answers_and_kind_names_the_backend(store: Arc<dyn MatchStore>) {
    store.ping().await.unwrap();
    assert!(["memory", "redis", "redis-cluster"].contains(&store.kind()));
}

all_stores!(
    create_then_load_returns_the_state,
    a_log_structured_match_loads_with_its_log,
    load_tail_returns_the_log_after_what_the_reader_holds,
    creating_an_existing_id_changes_nothing,
    commit_advances_version_and_numbers_events,
    stale_commit_conflicts_and_changes_nothing,
    idempotent_retry_returns_the_first_response,
    only_the_latest_key_of_each_slot_is_kept,
    missing_match_is_not_found,
    events_after_pages_with_limit,
    a_large_commit_keeps_every_event_in_order,
    wait_events_wakes_when_another_task_commits,
    wait_events_returns_at_once_when_events_exist,
    wait_events_times_out_without_new_events,
    concurrent_commits_on_one_version_let_exactly_one_win,
    ping_answers_and_kind_names_the_backend,
    the_schedule_is_never_late_and_leases_what_it_hands_out,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_a_commit_on_one_instance_wakes_a_wait_on_another() {
    // Re-reading is pushed past the wait's timeout, so only the pub/sub
    // notification can wake this waiter in time.
    let waiting = connect_redis()
        .await
        .with_recheck_interval(Duration::from_secs(120));
    let writing = connect_redis().await;
    let id = new_match(&writing, 1).await;
    assert_eq!(waiting.load(&id).await.unwrap().unwrap().state, "s1");

    let waiting = Arc::new(waiting);
    let waiter = {
        let (store, id) = (Arc::clone(&waiting), id.clone());
        tokio::spawn(async move { store.wait_events(&id, 1, Duration::from_secs(30)).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let evs = events("x", 1);
    writing.commit(&id, commit(1, "s2", &evs)).await.unwrap();
    assert_eq!(waiter.await.unwrap().unwrap(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_keys_of_a_match_share_one_slot_and_expire() {
    let store = connect_redis().await;
    let id = new_match(&store, 1).await;
    let evs = events("t", 1);
    let idem = Commit {
        idempotency: Some(("seat0:k", "r")),
        ..commit(1, "s2", &evs)
    };
    store.commit(&id, idem).await.unwrap();

    let client = ::redis::Client::open(redis_url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let mut keys: Vec<String> = ::redis::cmd("KEYS")
        .arg(format!("bf:{{{id}}}:*"))
        .query_async(&mut conn)
        .await
        .unwrap();
    keys.sort();
    let expected = ["ev", "idem", "state"].map(|k| format!("bf:{{{id}}}:{k}"));
    assert_eq!(keys, expected);
    for key in &keys {
        // Redis Cluster hashes only the text between the first `{` and the
        // next `}`: the same for all three keys, so one slot.
        let open = key.find('{').unwrap();
        let close = open + key[open..].find('}').unwrap();
        assert_eq!(&key[open + 1..close], id, "hash tag of {key}");
        let ttl: i64 = ::redis::cmd("TTL")
            .arg(key)
            .query_async(&mut conn)
            .await
            .unwrap();
        assert!(ttl > 0 && ttl <= 3600, "TTL of {key} is {ttl}");
    }
}
