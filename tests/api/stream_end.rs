//! The event stream of a finished match ends when resumed at its last
//! event (found by `scripts/fuzz-api`: it used to send keep-alives
//! forever): it answers `204 No Content`; resumed past it, `400`.

use std::time::Duration;

use serde_json::json;

use crate::app::{Backend, spawn_app};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_of_a_finished_match_resumed_at_its_end_closes_at_once() {
    let app = spawn_app(Backend::Memory).await;
    let seats = json!([{"kind": "remote"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]);
    let (id, tokens) = app
        .create(json!({"rules": {"max_hands": 1}, "seats": seats, "auto_deal": true}))
        .await;
    let token = tokens[0].clone().expect("seat 0 is remote");
    let path = format!("/v1/matches/{id}");
    app.finish_match(&id, &token).await;
    let last = app.get(&format!("{path}/events"), None).await.json["last_seq"]
        .as_u64()
        .expect("last_seq");
    // Resuming after an event the match never made is a client's mistake.
    let past = app
        .client
        .get(format!("{}{path}/stream", app.base))
        .header("Last-Event-ID", (last + 1000).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(past.status(), 400);
    let problem: serde_json::Value = past.json().await.unwrap();
    assert_eq!(problem["code"], "invalid_request");
    for resume in [last] {
        let resp = app
            .client
            .get(format!("{}{path}/stream", app.base))
            .header("Last-Event-ID", resume.to_string())
            .send()
            .await
            .unwrap();
        // 204: an `EventSource` stops reconnecting.
        assert_eq!(resp.status(), 204);
        let body = tokio::time::timeout(Duration::from_secs(5), resp.text())
            .await
            .expect("the stream of a finished match ends")
            .unwrap();
        assert!(!body.contains("event:"), "no events after the last: {body}");
    }
}

/// The stream checks the match and the token before it starts: a plain
/// problem answer, not a stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_refuses_an_unknown_match_or_a_wrong_token_before_starting() {
    let app = spawn_app(Backend::Memory).await;
    let missing = app.get("/v1/matches/no-such-match/stream", None).await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    assert_eq!(missing.content_type, "application/problem+json");
    assert_eq!(missing.json["code"], "match_not_found");
    let (id, _) = app.create(json!({})).await;
    let wrong = app
        .get(&format!("/v1/matches/{id}/stream"), Some("not-a-token"))
        .await;
    assert_eq!(wrong.status, 401, "{}", wrong.text);
    assert_eq!(wrong.json["code"], "unauthorized");
}
