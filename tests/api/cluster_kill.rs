//! Ratings exactly once when an instance dies mid-burst: two server
//! processes on the test Redis Cluster, eight rated pairs matches
//! between registered players, each played through its first hand; then
//! every match still going is resigned at once, half the requests through A, half
//! through B, and A is killed (`SIGKILL`) as soon as it acknowledged its
//! first, the others to it still under way.
//! Requests A never answered are sent again to B under the same
//! idempotency key. Every player must end with exactly one rated game and
//! one history entry: none rated twice, none never.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::json;
use tokio::sync::Notify;

use crate::app::TestApp;
use crate::backends::cluster::cluster_urls;
use crate::lobby_client::{PlayerKey, register};
use crate::redis_fleet::start_process_with;

const MATCHES: usize = 8;

pub(crate) const OPEN: [&str; 10] = [
    "--rate-limit-per-ip",
    "0",
    "--rate-limit-per-token",
    "0",
    "--rate-limit-per-match",
    "0",
    "--creates-per-minute",
    "0",
    "--players-per-ip-per-day",
    "0",
];

/// A rated pairs match between four new players, challenged on `a` and
/// accepted on `b`: its id and each seat's key.
async fn rated_match(a: &TestApp, b: &TestApp, n: usize) -> (String, Vec<String>) {
    let mut p: Vec<PlayerKey> = Vec::new();
    for i in 0..4 {
        let app = if i % 2 == 0 { a } else { b };
        p.push(register(app, &format!("burst{n}-{i}"), "bot").await);
    }
    let r = a
        .post(
            "/v1/challenges",
            Some(&p[0].key),
            json!({"variant": "pairs", "partner": p[1].id, "opponents": [p[2].id, p[3].id], "rated": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["rated"], true, "{}", r.text);
    let id = r.json["challenge_id"].as_str().unwrap().to_string();
    for who in &p[1..] {
        let path = format!("/v1/challenges/{id}/accept");
        let r = b.send(Method::POST, &path, Some(&who.key), None, &[]).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let view = a.get(&format!("/v1/matches/{id}"), None).await;
    let by_id: HashMap<&str, &str> = p.iter().map(|x| (x.id.as_str(), x.key.as_str())).collect();
    let keys = view.json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| by_id[s["player"]["id"].as_str().unwrap()].to_string())
        .collect();
    (id, keys)
}

/// Plays match `id` until its first hand is over, through `apps` in turn.
async fn first_hand(apps: [TestApp; 2], id: String, keys: Vec<String>) {
    for n in 0..500 {
        let app = &apps[n % 2];
        let view = app.get(&format!("/v1/matches/{id}"), None).await.json;
        let over = view["phase"] == "match_over";
        if over || view["hands"].as_array().is_some_and(|h| !h.is_empty()) {
            return;
        }
        let Some(turn) = view["turn"].as_u64() else {
            panic!("{id} has no turn: {view}")
        };
        let key = &keys[turn as usize];
        let legal = app
            .get(&format!("/v1/matches/{id}/legal-moves"), Some(key))
            .await
            .json;
        let actions = legal["actions"].as_array().cloned().unwrap_or_default();
        // No doubling: a doubled hand may end the match at once.
        let Some(action) = actions
            .iter()
            .find(|a| a["call"] == "pass")
            .or(actions.first())
        else {
            continue;
        };
        let mut action = action.clone();
        action["expected_version"] = legal["version"].clone();
        app.post(&format!("/v1/matches/{id}/actions"), Some(key), action)
            .await;
    }
    panic!("{id}: the first hand never ended");
}

/// Resigns match `id` for `key` at `base` under idempotency key `idem`:
/// the status, or `None` if the server did not answer.
async fn resign(base: &str, id: &str, key: &str, idem: &str) -> Option<StatusCode> {
    let r = reqwest::Client::new()
        .post(format!("{base}/v1/matches/{id}/resign"))
        .bearer_auth(key)
        .header("Idempotency-Key", idem)
        .json(&json!({"scope": "match"}))
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .ok()?;
    Some(r.status())
}

/// The player's games and history entries in pairs, read on `app`.
async fn rated_once(app: &TestApp, id: &str) -> (u64, usize) {
    let r = app.get(&format!("/v1/players/{id}/ratings"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let pool = &r.json["pools"][0];
    let games = pool["games"].as_u64().unwrap_or(0);
    (games, pool["history"].as_array().map_or(0, Vec::len))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_are_applied_once_when_an_instance_dies_mid_burst() {
    let nodes = cluster_urls().join(",");
    let mut a = start_process_with("REDIS_CLUSTER_NODES", &nodes, &OPEN).await;
    let b = start_process_with("REDIS_CLUSTER_NODES", &nodes, &OPEN).await;
    let mut matches = Vec::new();
    for n in 0..MATCHES {
        matches.push(rated_match(&a.app, &b.app, n).await);
    }
    let plays: Vec<_> = matches
        .iter()
        .map(|(id, keys)| {
            let apps = [
                TestApp::external(a.app.base.clone()),
                TestApp::external(b.app.base.clone()),
            ];
            tokio::spawn(first_hand(apps, id.clone(), keys.clone()))
        })
        .collect();
    for p in plays {
        p.await.unwrap();
    }
    // The burst: every match still going (a first hand may end a match)
    // resigned at once, half through A; A dies.
    let mut going = Vec::new();
    for (id, keys) in &matches {
        let view = b.app.get(&format!("/v1/matches/{id}"), None).await.json;
        if view["phase"] != "match_over" {
            going.push((id.clone(), keys.clone()));
        }
    }
    assert!(
        going.len() >= MATCHES / 2,
        "most matches go on after a hand"
    );
    let first = Arc::new(Notify::new());
    let burst: Vec<_> = going
        .iter()
        .enumerate()
        .map(|(n, (id, keys))| {
            let base = if n % 2 == 0 {
                a.app.base.clone()
            } else {
                b.app.base.clone()
            };
            let (id, key) = (id.clone(), keys[1].clone());
            let first = first.clone();
            tokio::spawn(async move {
                let idem = format!("resign-{id}");
                let status = resign(&base, &id, &key, &idem).await;
                if n % 2 == 0 && status == Some(StatusCode::OK) {
                    first.notify_one();
                }
                (status, id, key, idem)
            })
        })
        .collect();
    // A dies as soon as it acknowledged its first resignation (its
    // scheduler busy rating it), the others to A still in flight.
    let _ = tokio::time::timeout(Duration::from_secs(5), first.notified()).await;
    a.child.kill().expect("kill A");
    let killed = Instant::now();
    let mut unanswered = 0;
    for t in burst {
        let (status, id, key, idem) = t.await.unwrap();
        if status != Some(StatusCode::OK) {
            unanswered += 1;
            let again = resign(&b.app.base, &id, &key, &idem).await;
            assert_eq!(again, Some(StatusCode::OK), "{id} resigned on B");
        }
    }
    // B's scheduler applies what A left, each player once.
    let players: Vec<String> = {
        let mut ids = Vec::new();
        for (id, _) in &matches {
            let view = b.app.get(&format!("/v1/matches/{id}"), None).await.json;
            assert_eq!(view["phase"], "match_over", "{id}");
            for s in view["seats"].as_array().unwrap() {
                ids.push(s["player"]["id"].as_str().unwrap().to_string());
            }
        }
        ids
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    for p in &players {
        loop {
            let (games, entries) = rated_once(&b.app, p).await;
            assert!(
                games <= 1 && entries <= 1,
                "{p} rated twice: {games} games, {entries} entries"
            );
            if games == 1 && entries == 1 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{p} never rated ({games}, {entries})"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let all_rated = killed.elapsed();
    tokio::time::sleep(Duration::from_secs(1)).await;
    for p in &players {
        assert_eq!(rated_once(&b.app, p).await, (1, 1), "{p} once, still");
    }
    eprintln!(
        "instance killed mid-burst: {MATCHES} matches, {} resigned at once, {unanswered} \
         resignations unanswered by A and sent again to B; all {} players rated once \
         {all_rated:?} after the kill",
        going.len(),
        players.len()
    );
}
