//! What a browser needs from the server: the web client's files with a
//! strict policy, the seat token as an `access_token` query parameter on
//! the two reads `EventSource`-style clients make (and never in the request
//! log), and `204` from the stream of a finished match.

use std::time::Duration;

use serde_json::json;

use crate::app::{Backend, TestApp, spawn_app};

/// One remote seat (seat 0) against three house bots, dealt at once.
async fn match_against_bots(app: &TestApp, max_hands: u32) -> (String, String) {
    let bot = json!({"kind": "bot", "bot": "random"});
    let (id, tokens) = app
        .create(json!({
            "rules": {"max_hands": max_hands},
            "seats": [{"kind": "remote"}, bot, bot, bot],
            "auto_deal": true
        }))
        .await;
    (id, tokens[0].clone().expect("seat 0 is remote"))
}

/// The start of `GET …/stream?<query>`, up to its `hand_dealt` event.
async fn stream_until_dealt(app: &TestApp, id: &str, query: &str) -> (u16, String) {
    let mut resp = app
        .client
        .get(format!("{}/v1/matches/{id}/stream?{query}", app.base))
        .send()
        .await
        .expect("the request reaches the server");
    let status = resp.status().as_u16();
    let mut text = String::new();
    while !text
        .split_once("event: hand_dealt")
        .is_some_and(|(_, rest)| rest.contains("\n\n"))
    {
        let chunk = tokio::time::timeout(Duration::from_secs(10), resp.chunk())
            .await
            .expect("the stream sends the deal")
            .expect("a chunk")
            .expect("the stream goes on");
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    (status, text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_client_is_served_with_a_strict_content_security_policy() {
    let app = spawn_app(Backend::Memory).await;
    let page = app
        .client
        .get(format!("{}/", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let header = |name: &str| {
        page.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(header("content-type"), "text/html; charset=utf-8");
    assert!(header("content-security-policy").starts_with("default-src 'self'; script-src 'self'"));
    assert!(!header("content-security-policy").contains("unsafe"));
    assert_eq!(header("cache-control"), "no-cache");
    assert_eq!(header("x-content-type-options"), "nosniff");
    let etag = header("etag");
    assert!(page.text().await.unwrap().contains("/web/app.js"));

    let script = app.get("/web/app.js", None).await;
    assert_eq!(script.status, 200);
    assert_eq!(script.content_type, "text/javascript; charset=utf-8");
    assert!(script.text.contains("EventSource") || script.text.contains("follow("));

    let again = app
        .send(
            reqwest::Method::GET,
            "/",
            None,
            None,
            &[("If-None-Match", &etag)],
        )
        .await;
    assert_eq!(again.status, 304, "an unchanged page is not sent again");

    let head = app
        .client
        .head(format!("{}/web/app.css", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-type"], "text/css; charset=utf-8");

    let missing = app.get("/web/..%2FCargo.toml", None).await;
    assert_eq!(missing.status, 404);
    let unknown = app.get("/web/secret.js", None).await;
    assert_eq!(unknown.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_client_is_not_part_of_the_api_document() {
    let doc = botifarra::http::openapi_json().expect("the document serializes");
    assert!(!doc.contains("\"/web/"));
    assert!(!doc.contains("\"/\": {"));
    assert!(
        doc.contains("access_token"),
        "the query token is documented"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_accepts_the_seat_token_as_an_access_token_parameter() {
    let app = spawn_app(Backend::Memory).await;
    let (id, token) = match_against_bots(&app, 1).await;
    let (status, seat) = stream_until_dealt(&app, &id, &format!("access_token={token}")).await;
    assert_eq!(status, 200);
    let (_, spectator) = stream_until_dealt(&app, &id, "after=0").await;
    // The seat's `hand_dealt` carries its own cards; the spectator's none.
    let own_cards = app.get(&format!("/v1/matches/{id}"), Some(&token)).await;
    let first_card = own_cards.json["hand"][0]
        .as_str()
        .expect("a card")
        .to_string();
    let dealt = |text: &str| {
        text.split("\n\n")
            .find(|e| e.contains("event: hand_dealt"))
            .unwrap_or("")
            .to_string()
    };
    assert!(dealt(&seat).contains("\"cards\""), "{seat}");
    assert!(
        !dealt(&spectator).contains("\"cards\""),
        "a spectator sees no cards: {spectator}"
    );
    // The card turned to draw the first dealer (in `match_created`) comes
    // from its own shuffle and may be any card: leave it out of the search.
    let after_created: Vec<&str> = spectator
        .split("\n\n")
        .filter(|e| !e.contains("event: match_created"))
        .collect();
    assert!(
        first_card.len() <= 3
            && !after_created
                .iter()
                .any(|e| e.contains(&format!("\"{first_card}\""))),
        "{spectator}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_accept_the_seat_token_as_an_access_token_parameter() {
    let app = spawn_app(Backend::Memory).await;
    let (id, token) = match_against_bots(&app, 1).await;
    let events = format!("/v1/matches/{id}/events");
    let by_header = app.get(&events, Some(&token)).await;
    let by_query = app
        .get(&format!("{events}?access_token={token}"), None)
        .await;
    let spectator = app.get(&events, None).await;
    assert_eq!(by_query.status, 200, "{}", by_query.text);
    assert_eq!(by_query.json, by_header.json);
    assert_ne!(
        by_query.json, spectator.json,
        "the token gives the seat's view"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_or_empty_access_token_is_refused_before_anything_is_sent() {
    let app = spawn_app(Backend::Memory).await;
    let (id, _) = match_against_bots(&app, 1).await;
    for path in ["stream", "events"] {
        for query in ["access_token=not-a-token", "access_token="] {
            let r = app
                .get(&format!("/v1/matches/{id}/{path}?{query}"), None)
                .await;
            assert_eq!(r.status, 401, "{path}?{query}: {}", r.text);
            assert_eq!(r.content_type, "application/problem+json");
            assert_eq!(r.json["code"], "unauthorized");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_in_both_the_header_and_the_query_is_refused() {
    let app = spawn_app(Backend::Memory).await;
    let (id, token) = match_against_bots(&app, 1).await;
    for path in ["stream", "events"] {
        let r = app
            .get(
                &format!("/v1/matches/{id}/{path}?access_token={token}"),
                Some(&token),
            )
            .await;
        assert_eq!(r.status, 400, "{path}: {}", r.text);
        assert_eq!(r.json["code"], "invalid_request");
        assert!(!r.text.contains(&token), "the token is not echoed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_of_a_finished_match_answers_no_content_to_an_event_source() {
    let app = spawn_app(Backend::Memory).await;
    let (id, token) = match_against_bots(&app, 1).await;
    app.finish_match(&id, &token).await;
    let page = app
        .get(
            &format!("/v1/matches/{id}/events?access_token={token}"),
            None,
        )
        .await;
    let last = page.json["last_seq"].as_u64().expect("last_seq");
    let r = app
        .get(
            &format!("/v1/matches/{id}/stream?access_token={token}&after={last}"),
            None,
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    assert!(r.text.is_empty());
    // From the start, the events are still sent, ending with `match_over`.
    let r = app
        .get(
            &format!("/v1/matches/{id}/stream?access_token={token}"),
            None,
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(r.text.trim_end().ends_with('}'), "{}", r.text);
    assert!(r.text.contains("event: match_over"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_log_never_shows_an_access_token() {
    let log = crate::logs::capture();
    let app = spawn_app(Backend::Memory).await;
    let (id, token) = match_against_bots(&app, 1).await;
    let wrong = "wrong-secret-token-1234";
    // Refused and accepted requests, one with the key percent-encoded.
    let refused = [
        format!("/v1/matches/{id}/events?access_token={wrong}"),
        format!("/v1/matches/{id}/stream?after=0&access%5Ftoken={wrong}"),
        format!("/v1/matches/{id}/events?access_token={token}&limit=0&bad=1"),
    ];
    for path in &refused {
        let r = app.get(path, None).await;
        assert!(r.status.is_client_error(), "{path}: {}", r.status);
    }
    let ok = app
        .get(
            &format!("/v1/matches/{id}/events?access_token={token}"),
            None,
        )
        .await;
    assert_eq!(ok.status, 200);
    let text = log.text();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(&id)).collect();
    assert!(
        lines.iter().any(|l| l.contains("access_token=[redacted]")),
        "the refused requests are logged with the token redacted: {text}"
    );
    assert!(!text.contains(wrong), "{text}");
    assert!(!text.contains(&token), "{text}");
}
