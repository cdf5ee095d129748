//! A bot daemon's day: one key playing sixteen matches at once against
//! house bots from its player's event stream, at the documented rate
//! limits, without a single `429`. The daemon reads the `RateLimit`
//! field as a client should, and lets a bucket refill when fewer than
//! [`RESERVE`] requests are left in it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use botifarra::http::ServeOptions;

use crate::app::{Backend, TestApp, spawn_lobby_with};
use crate::backends::both_stores;
use crate::lobby_client::{PlayerKey, register};

/// Matches the daemon plays at once.
const MATCHES: usize = 16;

/// Requests the daemon keeps in hand in every bucket: below, it pauses.
const RESERVE: u64 = 64;

/// The server at its documented defaults (two workers, as every test).
fn defaults() -> ServeOptions {
    ServeOptions {
        workers: Some(2),
        ..ServeOptions::default()
    }
}

/// Requests the daemon made, the `429`s among them, and the fewest
/// requests each bucket had left (its `RateLimit` field's `r`).
#[derive(Default)]
struct Tally {
    requests: AtomicU64,
    refused: AtomicU64,
    pauses: AtomicU64,
    lowest: Mutex<HashMap<String, u64>>,
}

impl Tally {
    fn count(&self, status: StatusCode) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        if status == StatusCode::TOO_MANY_REQUESTS {
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Notes each bucket's `r` in a `RateLimit` field
    /// (`"ip";r=998;t=1, "token";r=199;t=1`); answers the fewest left.
    fn note(&self, field: &str) -> u64 {
        let mut fewest = u64::MAX;
        let mut lowest = self.lowest.lock().unwrap();
        for item in field.split(", ") {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim_matches('"').to_string();
            let r = parts
                .find_map(|p| p.strip_prefix("r="))
                .and_then(|r| r.parse::<u64>().ok())
                .unwrap();
            let low = lowest.entry(name).or_insert(u64::MAX);
            *low = (*low).min(r);
            fewest = fewest.min(r);
        }
        fewest
    }
}

/// Sends a request as the daemon: its status and body, the `RateLimit`
/// field noted in `tally`.
async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    key: &str,
    body: Option<(Value, &Value)>,
    tally: &Tally,
) -> (StatusCode, Value) {
    let mut req = app
        .client
        .request(method, format!("{}{path}", app.base))
        .bearer_auth(key);
    if let Some((action, version)) = body {
        req = req.json(&action).header("if-match", version.to_string());
    }
    let resp = req.send().await.unwrap();
    let status = resp.status();
    tally.count(status);
    if let Some(field) = resp.headers().get("ratelimit") {
        // As a daemon should: with a bucket nearly spent, let it refill
        // (a fifth of a second brings back a fifth of its rate).
        if tally.note(field.to_str().unwrap()) < RESERVE {
            tally.pauses.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }
    let json = resp.json().await.unwrap_or(Value::Null);
    (status, json)
}

/// Plays the turn announced (`match_id`, `version`) with the first legal
/// action of the view, if the view is still at that version.
async fn play_turn(app: &TestApp, key: &str, id: &str, version: &Value, tally: &Tally) {
    let path = format!("/v1/matches/{id}");
    let (status, view) = call(app, Method::GET, &path, key, None, tally).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    if &view["version"] != version {
        return;
    }
    let Some(action) = view["legal_actions"].get(0) else {
        return;
    };
    let path = format!("{path}/actions");
    let body = Some((action.clone(), version));
    let (status, r) = call(app, Method::POST, &path, key, body, tally).await;
    assert!(
        status == StatusCode::OK || r["code"] == "version_conflict",
        "{r}"
    );
}

/// Follows `me`'s events with long polls, acting on each `your_turn`
/// (the newest per match, all matches at once), until every match of
/// `ids` is over.
async fn daemon(app: Arc<TestApp>, me: PlayerKey, ids: Vec<String>, tally: Arc<Tally>) {
    let mut open: std::collections::HashSet<String> = ids.into_iter().collect();
    let mut after = 0;
    while !open.is_empty() {
        let path = format!("/v1/players/me/events?after={after}&wait_ms=10000");
        let (status, page) = call(&app, Method::GET, &path, &me.key, None, &tally).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        after = page["last_seq"].as_u64().unwrap();
        let mut turns: HashMap<String, Value> = HashMap::new();
        for e in page["events"].as_array().unwrap() {
            let id = e["match_id"].as_str().unwrap_or_default().to_string();
            match e["type"].as_str().unwrap() {
                "your_turn" => {
                    turns.insert(id, e["version"].clone());
                }
                "match_over" => {
                    turns.remove(&id);
                    open.remove(&id);
                }
                _ => {}
            }
        }
        let moves = turns.into_iter().map(|(id, version)| {
            let (app, key, tally) = (app.clone(), me.key.clone(), tally.clone());
            tokio::spawn(async move { play_turn(&app, &key, &id, &version, &tally).await })
        });
        for m in moves.collect::<Vec<_>>() {
            m.await.unwrap();
        }
    }
}

async fn one_key_plays_sixteen_matches_at_once_without_a_429(backend: Backend) {
    let app = Arc::new(spawn_lobby_with(backend, defaults()).await);
    let me = register(&app, "daemon", "bot").await;
    let tally = Arc::new(Tally::default());
    let mut ids = Vec::new();
    for _ in 0..MATCHES {
        let r = app
            .post(
                "/v1/matches",
                Some(&me.key),
                json!({"auto_deal": true, "rules": {"target": 51},
                       "seats": [{"player": me.id}, {"kind": "bot", "bot": "medium"},
                                 {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "medium"}]}),
            )
            .await;
        tally.count(r.status);
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        ids.push(r.json["match_id"].as_str().unwrap().to_string());
    }
    let started = std::time::Instant::now();
    daemon(app.clone(), me.clone(), ids.clone(), tally.clone()).await;
    let requests = tally.requests.load(Ordering::Relaxed);
    eprintln!(
        "{MATCHES} matches, {requests} requests in {:?}, {} pauses, fewest left per bucket {:?}",
        started.elapsed(),
        tally.pauses.load(Ordering::Relaxed),
        tally.lowest.lock().unwrap()
    );
    assert_eq!(tally.refused.load(Ordering::Relaxed), 0, "no 429");
    for id in &ids {
        let view = app.get(&format!("/v1/matches/{id}"), None).await;
        assert_eq!(view.json["phase"], "match_over", "{id} finished");
    }
}

/// A key refused on one match (its bucket empty) still reads its other
/// matches and, in its matches list, whose turn it is in each; the
/// refusal says when to retry.
async fn a_key_refused_on_one_match_still_learns_whose_turn_it_is(backend: Backend) {
    let mut opts = defaults();
    opts.rate_limits.per_match_per_sec = 1;
    let app = spawn_lobby_with(backend, opts).await;
    let me = register(&app, "refused", "bot").await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let r = app
            .post(
                "/v1/matches",
                Some(&me.key),
                json!({"auto_deal": true,
                       "seats": [{"player": me.id}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        ids.push(r.json["match_id"].as_str().unwrap().to_string());
    }
    let url = format!("{}/v1/matches/{}", app.base, ids[0]);
    let mut refusal = None;
    for _ in 0..3 {
        let resp = app
            .client
            .get(&url)
            .bearer_auth(&me.key)
            .send()
            .await
            .unwrap();
        if resp.status() == StatusCode::TOO_MANY_REQUESTS {
            refusal = Some(resp);
            break;
        }
    }
    let refusal = refusal.expect("the match's bucket of 2 is empty by the third read");
    assert_eq!(refusal.headers()["retry-after"], "1");
    let limit = refusal.headers()["ratelimit"].to_str().unwrap().to_string();
    assert!(limit.contains("\"match\";r=0;t=1"), "{limit}");
    let body: Value = refusal.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert!(
        body["detail"].as_str().unwrap().contains("per match"),
        "{body}"
    );

    // The other match is read, and the list tells the turn in both.
    let other = app
        .get(&format!("/v1/matches/{}", ids[1]), Some(&me.key))
        .await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.text);
    let list = app
        .get("/v1/players/me/matches?status=ongoing", Some(&me.key))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let rows = list.json["matches"].as_array().unwrap();
    for id in &ids {
        let row = rows.iter().find(|m| m["match_id"] == id.as_str()).unwrap();
        assert!(row["your_turn"].is_boolean(), "{row}");
        assert!(row["version"].is_u64(), "{row}");
    }
}

both_stores!(
    one_key_plays_sixteen_matches_at_once_without_a_429,
    a_key_refused_on_one_match_still_learns_whose_turn_it_is,
);
