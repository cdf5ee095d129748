//! Helpers of the players and tables tests: registering, creating tables,
//! joining, and a bot that plays its seat through its player's stream.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Reply, TestApp};

/// A registered player: id and API key.
#[derive(Clone, Debug)]
pub struct PlayerKey {
    pub id: String,
    pub key: String,
}

/// Registers a player.
pub async fn register(app: &TestApp, name: &str, kind: &str) -> PlayerKey {
    let r = app
        .post("/v1/players", None, json!({"name": name, "kind": kind}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    PlayerKey {
        id: r.json["player"]["id"].as_str().unwrap().to_string(),
        key: r.json["api_key"].as_str().unwrap().to_string(),
    }
}

/// Creates a table; returns the whole answer.
pub async fn create_table(app: &TestApp, body: Value) -> Value {
    create_table_as(app, None, body).await
}

/// Creates a table with a credential (a player's key seats that player);
/// returns the whole answer.
pub async fn create_table_as(app: &TestApp, key: Option<&str>, body: Value) -> Value {
    let r = app.post("/v1/tables", key, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.json
}

/// Four open seats of the pairs game, short, dealt automatically.
pub fn four_open(extra: Value) -> Value {
    let mut body = json!({
        "rules": {"max_hands": 1},
        "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}],
        "auto_deal": true,
    });
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    body
}

/// Joins table `id` with an optional credential.
pub async fn join(app: &TestApp, id: &str, cred: Option<&str>, body: Value) -> Reply {
    app.post(&format!("/v1/tables/{id}/join"), cred, body).await
}

/// The player's events after `after`, waiting up to `wait_ms`.
pub async fn player_events(app: &TestApp, key: &str, after: u64, wait_ms: u64) -> Value {
    let r = app
        .get(
            &format!("/v1/players/me/events?after={after}&wait_ms={wait_ms}"),
            Some(key),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json
}

/// Plays `match_id` with `cred` (a seat token or the seated player's key),
/// the first legal action each time it is the seat's turn, until the
/// match is over; waits on the match's events between turns.
/// Posts `action` to match `match_id` guarded by `If-Match: version`; it is
/// applied, or another seat's move (or a house move) came first.
pub async fn post_at_version(
    app: &TestApp,
    match_id: &str,
    cred: &str,
    action: &Value,
    version: &Value,
) {
    let r = app
        .send(
            Method::POST,
            &format!("/v1/matches/{match_id}/actions"),
            Some(cred),
            Some(action.clone()),
            &[("If-Match", &version.to_string())],
        )
        .await;
    assert!(
        r.status == StatusCode::OK || r.json["code"] == "version_conflict",
        "{}",
        r.text
    );
}

pub async fn play_to_end(app: &TestApp, match_id: &str, cred: &str) {
    let path = format!("/v1/matches/{match_id}");
    let mut last = 0;
    for _ in 0..5000 {
        let view = app.get(&path, Some(cred)).await;
        assert_eq!(view.status, StatusCode::OK, "{}", view.text);
        if view.json["phase"] == "match_over" {
            return;
        }
        if let Some(action) = view.json["legal_actions"].get(0) {
            post_at_version(app, match_id, cred, action, &view.json["version"]).await;
            continue;
        }
        let page = app
            .get(
                &format!("{path}/events?after={last}&wait_ms=5000"),
                Some(cred),
            )
            .await;
        last = page.json["last_seq"].as_u64().unwrap_or(last);
    }
    panic!("match {match_id} did not end");
}

/// Every secret-looking string (seat tokens `bt_…`, API keys `bp_…`) in a text.
pub fn secrets_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for prefix in ["bt_", "bp_"] {
        let mut rest = text;
        while let Some(i) = rest.find(prefix) {
            let tail = &rest[i..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(tail.len());
            if end > 20 {
                out.push(tail[..end].to_string());
            }
            rest = &tail[prefix.len()..];
        }
    }
    out
}
