//! Losing a master mid-play: a cluster of three masters, each with a
//! replica (started here), under six matches played to the end by
//! clients that retry each refused action with its idempotency key. The
//! master holding one of the matches is killed a third of the way in;
//! its replica takes over, and every match plays to the end. The store
//! waits for one replica on every write (100 ms at most), so no action
//! the server acknowledged may be lost: a match read at an older version
//! than one already acknowledged would be a loss.
//! The figures (actions, client-visible errors, the time without the
//! master's slots) are printed.
//!
//! The store is set up as the server sets it up by default
//! (`--redis-wait-replicas auto`): every master has a replica, so every
//! write of a match waits for one.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use botifarra::store::{MatchStore, RedisStore, ReplicaWait};
use reqwest::Method;
use serde_json::{Value, json};

use crate::app::{TestApp, spawn_with_store};
use crate::backends::cluster::Cluster;

/// What one match's client saw.
#[derive(Debug, Default)]
struct Seen {
    acked: u64,
    errors: u64,
    lost: u64,
    longest_gap: Duration,
}

/// Reads `path` until it answers 200, counting the failures.
async fn read(app: &TestApp, path: &str, token: Option<&str>, seen: &mut Seen) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let r = app.get(path, token).await;
        if r.status == 200 {
            return r.json;
        }
        assert!(
            r.status.is_server_error(),
            "{path}: {} {}",
            r.status,
            r.text
        );
        assert!(
            Instant::now() < deadline,
            "{path} never recovered: {}",
            r.text
        );
        seen.errors += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Plays match `id` to the end, first legal action each turn, each
/// action posted with an idempotency key until acknowledged.
async fn play(app: TestApp, id: String, tokens: Vec<String>, total: Arc<AtomicU64>) -> Seen {
    let mut seen = Seen::default();
    let mut version = 0;
    loop {
        let view = read(&app, &format!("/v1/matches/{id}"), None, &mut seen).await;
        let now = view["version"].as_u64().unwrap();
        if now < version {
            seen.lost += version - now;
        }
        version = now;
        if view["phase"] == "match_over" {
            return seen;
        }
        let turn = view["turn"].as_u64().unwrap() as usize;
        let path = format!("/v1/matches/{id}/legal-moves");
        let legal = read(&app, &path, Some(&tokens[turn]), &mut seen).await;
        if legal["version"].as_u64() != Some(version) {
            continue;
        }
        let mut action = legal["actions"][0].clone();
        action["expected_version"] = json!(version);
        let key = format!("{id}-{version}");
        let started = Instant::now();
        loop {
            let r = app
                .send(
                    Method::POST,
                    &format!("/v1/matches/{id}/actions"),
                    Some(&tokens[turn]),
                    Some(action.clone()),
                    &[("Idempotency-Key", &key)],
                )
                .await;
            if r.status == 200 {
                version = r.json["version"].as_u64().unwrap();
                seen.acked += 1;
                total.fetch_add(1, Ordering::SeqCst);
                seen.longest_gap = seen.longest_gap.max(started.elapsed());
                break;
            }
            assert!(r.status.is_server_error(), "{} {}", r.status, r.text);
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "never acknowledged: {}",
                r.text
            );
            seen.errors += 1;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_master_killed_mid_play_loses_no_acknowledged_action() {
    let mut cluster = Cluster::start_with_replicas();
    let store = RedisStore::connect_cluster(&cluster.urls(), Duration::from_secs(600))
        .await
        .expect("connect to the cluster")
        .with_replica_policy(ReplicaWait::Auto, Duration::from_millis(100))
        .await
        .expect("ask the cluster for its replicas");
    assert_eq!(store.replicas_waited_for(), 1, "the default waits for one");
    let store: Arc<dyn MatchStore> = Arc::new(store);
    let app = spawn_with_store(store).await;
    let total = Arc::new(AtomicU64::new(0));
    let mut ids = Vec::new();
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let (id, tokens) = app.create(json!({"rules": {"target": 31}})).await;
        let tokens = tokens.into_iter().map(Option::unwrap).collect();
        ids.push(id.clone());
        let client = TestApp::external(app.base.clone());
        tasks.push(tokio::spawn(play(client, id, tokens, total.clone())));
    }
    while total.load(Ordering::SeqCst) < 120 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let victim = cluster.master_of(&format!("bf:{{{}}}:n", ids[0]));
    let at = total.load(Ordering::SeqCst);
    let node = cluster
        .nodes
        .iter_mut()
        .find(|n| n.port() == victim)
        .unwrap();
    node.stop();
    let killed = Instant::now();
    let mut seen = Vec::new();
    for t in tasks {
        seen.push(t.await.expect("a client"));
    }
    let acked: u64 = seen.iter().map(|s| s.acked).sum();
    let errors: u64 = seen.iter().map(|s| s.errors).sum();
    let lost: u64 = seen.iter().map(|s| s.lost).sum();
    let gap = seen.iter().map(|s| s.longest_gap).max().unwrap_or_default();
    eprintln!(
        "failover: master {victim} killed after {at} actions; {acked} actions acknowledged, \
         {lost} lost, {errors} client-visible errors (all 5xx, retried), longest wait for \
         one action {gap:?}, all done {:?} after the kill",
        killed.elapsed()
    );
    assert_eq!(lost, 0, "acknowledged actions lost: {seen:?}");
    assert!(
        errors > 0,
        "the killed master's matches saw it go: {seen:?}"
    );
    let promoted = cluster.master_of(&format!("bf:{{{}}}:n", ids[0]));
    assert_ne!(promoted, victim, "a replica took the slots over");
    for id in &ids {
        let r = app.get(&format!("/v1/matches/{id}"), None).await;
        assert_eq!(r.json["phase"], "match_over", "{id}");
    }
}
