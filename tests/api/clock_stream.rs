//! Move clocks (the house bot acts for a seat that runs out of time, or its
//! side forfeits) and the server-sent event stream.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_app, store_for};
use crate::backends::both_stores;

async fn events(app: &TestApp, id: &str, query: &str) -> Vec<Value> {
    app.get(&format!("/v1/matches/{id}/events?{query}"), None)
        .await
        .json["events"]
        .as_array()
        .unwrap()
        .clone()
}

async fn expired_clock_lets_the_house_bot_move(backend: Backend) {
    let app = spawn_app(backend).await;
    let body = json!({"rules": {"first_dealer": 0}, "move_timeout_ms": 300});
    let (id, _tokens) = app.create(body).await;
    let v = app.get(&format!("/v1/matches/{id}"), None).await.json;
    assert_eq!(v["phase"], "awaiting_deal");
    assert!(
        v["deadline"].is_string(),
        "a match with a clock shows the deadline"
    );
    // A long poll wakes when the clock runs out, with the bot's move.
    let woken = events(&app, &id, "after=1&wait_ms=10000").await;
    let first = &woken[0];
    assert_eq!(first["type"], "bot_acted", "{woken:?}");
    assert_eq!(first["reason"], "timeout");
    assert_eq!(first["seat"], 0);
    assert_eq!(first["action"], json!({"type": "deal"}));
    let v = app.get(&format!("/v1/matches/{id}"), None).await.json;
    assert_eq!(v["phase"], "choosing_trump");
    assert!(v["deadline"].is_string());
}

async fn expired_clock_with_forfeit_forfeits_the_hand(backend: Backend) {
    let app = spawn_app(backend).await;
    let body =
        json!({"rules": {"first_dealer": 0}, "move_timeout_ms": 300, "on_timeout": "forfeit"});
    let (id, tokens) = app.create(body).await;
    let r = app
        .post(
            &format!("/v1/matches/{id}/deal"),
            tokens[0].as_deref(),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // The scheduler fires the clock with nobody acting; the test reads
    // until the hand shows it (a read writes nothing).
    let until = std::time::Instant::now() + Duration::from_secs(20);
    let v = loop {
        let v = app.get(&format!("/v1/matches/{id}"), None).await.json;
        if !v["hands"][0].is_null() {
            break v;
        }
        assert!(
            std::time::Instant::now() < until,
            "the clock never fired: {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let hand = &v["hands"][0];
    assert_eq!(hand["forfeit"], 0, "the dealer's team ran out of time: {v}");
    assert_eq!(hand["recorded"], json!([0, 36]));
    assert_eq!(v["scores"], json!([0, 36]));
    let kinds: Vec<Value> = events(&app, &id, "after=0")
        .await
        .iter()
        .map(|e| e["type"].clone())
        .collect();
    assert!(kinds.contains(&json!("hand_forfeited")), "{kinds:?}");
}

/// Reads server-sent events until `n` events arrived; returns (id, type, data).
pub async fn read_sse(resp: reqwest::Response, n: usize) -> Vec<(u64, String, Value)> {
    let mut stream = resp.bytes_stream();
    let mut buf = String::new();
    let mut out = Vec::new();
    while out.len() < n {
        let chunk = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("an event within 10 s")
            .unwrap_or_else(|| panic!("the stream goes on: {buf} {out:?}"))
            .expect("a chunk");
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            let (mut id, mut kind, mut data) = (None, String::new(), Value::Null);
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("id: ") {
                    id = v.parse().ok();
                } else if let Some(v) = line.strip_prefix("event: ") {
                    kind = v.to_string();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data = serde_json::from_str(v).unwrap();
                }
            }
            if let Some(id) = id {
                out.push((id, kind, data));
            }
        }
    }
    out
}

async fn stream_sends_events_and_resumes_after_last_event_id(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, tokens) = app.create(json!({"rules": {"first_dealer": 0}})).await;
    let url = format!("{}/v1/matches/{id}/stream", app.base);
    let resp = app
        .client
        .get(&url)
        .bearer_auth(tokens[1].as_deref().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let poster = {
        let app_base = app.base.clone();
        let client = app.client.clone();
        let token = tokens[0].clone().unwrap();
        let id = id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            client
                .post(format!("{app_base}/v1/matches/{id}/deal"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .status()
        })
    };
    let got = read_sse(resp, 2).await;
    assert_eq!(poster.await.unwrap(), 200);
    assert_eq!((got[0].0, got[0].1.as_str()), (1, "match_created"));
    assert_eq!((got[1].0, got[1].1.as_str()), (2, "hand_dealt"));
    assert_eq!(
        got[1].2["cards"].as_array().unwrap().len(),
        12,
        "seat 1 sees its own cards"
    );
    assert_eq!(got[1].2["seq"], 2);
    // Resuming after event 1 starts with event 2; a spectator sees no cards.
    let resp = app
        .client
        .get(&url)
        .header("Last-Event-ID", "1")
        .send()
        .await
        .unwrap();
    let again = read_sse(resp, 1).await;
    assert_eq!((again[0].0, again[0].1.as_str()), (2, "hand_dealt"));
    assert!(
        again[0].2.get("cards").is_none(),
        "a spectator sees no cards"
    );
}

async fn a_refused_action_on_a_match_with_a_due_clock_writes_nothing(backend: Backend) {
    let store = store_for(backend, None).await;
    // No scheduler here, so that only the requests could write.
    let mut opts = crate::app::unlimited();
    opts.scheduler.enabled = false;
    let app = crate::app::spawn_with(store.clone(), opts).await;
    let body = json!({"rules": {"first_dealer": 0}, "move_timeout_ms": 100});
    let (id, _tokens) = app.create(body).await;
    let stored = || async { store.load(&id).await.unwrap().unwrap().version };
    let before = stored().await;
    // The dealer's clock runs out: a stand-in deal is due, which a refused
    // request must not play.
    tokio::time::sleep(Duration::from_millis(250)).await;
    let wrong = format!("bt_{}", "0".repeat(64));
    for token in [None, Some(wrong.as_str())] {
        let r = app
            .post(&format!("/v1/matches/{id}/deal"), token, json!({}))
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
        let r = app
            .post(
                &format!("/v1/matches/{id}/actions"),
                token,
                json!({"type": "deal"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    }
    assert_eq!(
        stored().await,
        before,
        "a refused request must not commit the due clock's move"
    );
}

both_stores!(
    a_refused_action_on_a_match_with_a_due_clock_writes_nothing,
    expired_clock_lets_the_house_bot_move,
    expired_clock_with_forfeit_forfeits_the_hand,
    stream_sends_events_and_resumes_after_last_event_id,
);
