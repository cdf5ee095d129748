//! Global caps and key revocation of issue 27: players registered per
//! client address per day and in all (held across instances on one
//! Redis), event streams per instance, each with its problem and its
//! metric; a revoked or rotated key's open stream ends before the next
//! event.

use std::time::Duration;

use botifarra::http::ServeOptions;
use botifarra::http::limit::RateLimits;
use botifarra::lobby::Lobby;
use botifarra::lobby::records::PlayerEvent;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::app::{Backend, Reply, TestApp, lobby_for, lobby_over, spawn_service, unlimited};
use crate::lobby_client::register;

/// Server options without rate limits but with these caps, trusting one
/// proxy (so that a test picks its client address).
fn capped(per_day: u64, max_players: u64, streams_total: usize) -> ServeOptions {
    let mut opts = unlimited();
    opts.rate_limits = RateLimits {
        players_per_ip_per_day: per_day,
        max_players,
        streams_total,
        trusted_proxies: 1,
        ..opts.rate_limits
    };
    opts
}

/// Registers a player from client address `addr`.
async fn register_from(app: &TestApp, addr: &str) -> Reply {
    let body = json!({"name": "capped", "kind": "human"});
    let headers = [("X-Forwarded-For", addr), ("Accept-Language", "ca")];
    app.send(Method::POST, "/v1/players", None, Some(body), &headers)
        .await
}

/// The value of `botifarra_limits_hit_total{limit="<limit>"}`.
async fn limit_hits(app: &TestApp, limit: &str) -> u64 {
    let text = app.get("/metrics", None).await.text;
    let line = format!("botifarra_limits_hit_total{{limit=\"{limit}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&line))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

/// A fresh client address per run (the Redis store is shared by tests).
fn fresh_addr() -> String {
    let b = rand::random::<[u8; 3]>();
    format!("10.{}.{}.{}", b[0], b[1], b[2])
}

/// Two instances over one lobby store on `backend` (one and the same
/// instance twice on memory).
async fn instances(backend: Backend, opts: ServeOptions) -> (TestApp, TestApp) {
    let first = lobby_for(backend).await;
    let second = match backend {
        Backend::Memory => first.clone(),
        _ => lobby_over(backend, crate::app::lobby_store_for(backend).await).await,
    };
    (
        spawn_service(first, opts.clone()),
        spawn_service(second, opts),
    )
}

async fn players_per_address_per_day_hold_across_instances(backend: Backend) {
    let (a, b) = instances(backend, capped(3, 0, 16)).await;
    let addr = fresh_addr();
    let before = limit_hits(&a, "players_per_ip_per_day").await;
    for app in [&a, &b, &a] {
        let r = register_from(app, &addr).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    for app in [&b, &a] {
        let r = register_from(app, &addr).await;
        assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
        assert_eq!(r.json["code"], "rate_limited");
        assert!(
            r.json["detail"].as_str().unwrap().contains('3'),
            "{}",
            r.text
        );
        let retry = r.json["retry_after"].as_u64().unwrap();
        assert!((1..=86_400).contains(&retry), "until the next day: {retry}");
    }
    assert!(limit_hits(&a, "players_per_ip_per_day").await >= before + 2);
    // Another address is not affected; a bad name takes no place.
    let other = fresh_addr();
    let bad = app_bad_name(&a, &other).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    for _ in 0..3 {
        assert_eq!(register_from(&b, &other).await.status, StatusCode::CREATED);
    }
}

/// A registration with a blank name from `addr`.
async fn app_bad_name(app: &TestApp, addr: &str) -> Reply {
    let body = json!({"name": "   ", "kind": "human"});
    app.send(
        Method::POST,
        "/v1/players",
        None,
        Some(body),
        &[("X-Forwarded-For", addr)],
    )
    .await
}

/// Players in all: the cap holds for racing registrations over two
/// instances on a Redis of this test's own (the shared one counts every
/// test's players), and on memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn players_in_all_are_capped_with_507_even_racing() {
    let redis = crate::backends::redis::RedisProcess::start();
    let store = || async {
        std::sync::Arc::new(
            botifarra::lobby::store::RedisLobbyStore::connect(&redis.url())
                .await
                .unwrap(),
        ) as std::sync::Arc<dyn botifarra::lobby::store::LobbyStore>
    };
    let a = spawn_service(
        lobby_over(Backend::Redis, store().await).await,
        capped(0, 5, 16),
    );
    let b = spawn_service(
        lobby_over(Backend::Redis, store().await).await,
        capped(0, 5, 16),
    );
    let m = spawn_service(lobby_for(Backend::Memory).await, capped(0, 5, 16));
    for apps in [[&a, &b], [&m, &m]] {
        let before = limit_hits(apps[0], "players_total").await;
        let tries = (0..12).map(|i| register_from(apps[i % 2], "192.0.2.1"));
        let replies = futures_util::future::join_all(tries).await;
        let made = replies
            .iter()
            .filter(|r| r.status == StatusCode::CREATED)
            .count();
        assert_eq!(made, 5, "exactly the cap");
        for r in replies.iter().filter(|r| r.status != StatusCode::CREATED) {
            assert_eq!(r.status, StatusCode::INSUFFICIENT_STORAGE, "{}", r.text);
            assert_eq!(r.json["code"], "capacity_reached");
            assert_eq!(r.json["title"], "Capacitat exhaurida");
        }
        assert!(limit_hits(apps[0], "players_total").await >= before + 7);
    }
}

/// Event streams per instance: past the cap `503 busy`, whatever the
/// address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_in_all_are_capped_per_instance() {
    let app = spawn_service(lobby_for(Backend::Memory).await, capped(0, 0, 2));
    let p = register(&app, "streamer", "human").await;
    let before = limit_hits(&app, "streams_total").await;
    let open = |addr: &'static str| {
        app.client
            .get(format!("{}/v1/players/me/events", app.base))
            .bearer_auth(&p.key)
            .header("Accept", "text/event-stream")
            .header("X-Forwarded-For", addr)
            .send()
    };
    let first = open("198.51.100.1").await.unwrap();
    let second = open("198.51.100.2").await.unwrap();
    assert_eq!(
        (first.status(), second.status()),
        (StatusCode::OK, StatusCode::OK)
    );
    let third = open("198.51.100.3").await.unwrap();
    assert_eq!(third.status(), StatusCode::SERVICE_UNAVAILABLE);
    let problem: serde_json::Value = third.json().await.unwrap();
    assert_eq!(problem["code"], "busy");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("2 open event streams")
    );
    assert!(limit_hits(&app, "streams_total").await > before);
}

/// Reads an event stream until it ends or `limit` passes: its text.
async fn read_to_end(mut resp: reqwest::Response, limit: Duration) -> (String, bool) {
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, resp.chunk()).await {
            Ok(Ok(Some(bytes))) => text.push_str(&String::from_utf8_lossy(&bytes)),
            Ok(_) => return (text, true),
            Err(_) => return (text, false),
        }
    }
}

/// A key rotated (or revoked) on one instance ends the stream opened with
/// it on another before the next event: an `error` event, nothing else.
async fn a_rotated_or_revoked_key_ends_its_stream_before_the_next_event(backend: Backend) {
    for revoke in [false, true] {
        let a_lobby = lobby_for(backend).await;
        let b_lobby: Lobby = match backend {
            Backend::Memory => a_lobby.clone(),
            _ => lobby_over(backend, crate::app::lobby_store_for(backend).await).await,
        };
        let a = spawn_service(a_lobby, unlimited());
        let b = spawn_service(b_lobby.clone(), unlimited());
        let p = register(&a, "watched", "human").await;
        let stream = a
            .client
            .get(format!("{}/v1/players/me/events", a.base))
            .bearer_auth(&p.key)
            .header("Accept", "text/event-stream")
            .send()
            .await
            .unwrap();
        assert_eq!(stream.status(), StatusCode::OK);
        // A long poll waiting with the same key.
        let poll = {
            let a = TestApp::external(a.base.clone());
            let key = p.key.clone();
            tokio::spawn(async move {
                a.get("/v1/players/me/events?wait_ms=10000", Some(&key))
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        let method = if revoke { Method::DELETE } else { Method::POST };
        let r = b
            .send(method, "/v1/players/me/key", Some(&p.key), None, &[])
            .await;
        assert!(r.status.is_success(), "{}", r.text);
        let event = PlayerEvent::ChallengeCancelled {
            challenge_id: "after-rotation".into(),
        };
        b_lobby.core().publish(&p.id, &event).await;
        let (text, ended) = read_to_end(stream, Duration::from_secs(20)).await;
        assert!(ended, "the stream ended: {text}");
        assert!(
            !text.contains("after-rotation"),
            "nothing delivered: {text}"
        );
        assert!(text.contains("event: error"), "{text}");
        assert!(text.contains("\"code\":\"unauthorized\""), "{text}");
        let polled = poll.await.unwrap();
        assert_eq!(polled.status, StatusCode::UNAUTHORIZED, "{}", polled.text);
        assert!(!polled.text.contains("after-rotation"));
    }
}

crate::backends::both_stores!(
    players_per_address_per_day_hold_across_instances,
    a_rotated_or_revoked_key_ends_its_stream_before_the_next_event,
);

/// A match's stream read with a player's key ends once the key is
/// rotated, before the next event of the match (a move made with the
/// seat token, which keeps working).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_stream_read_with_a_rotated_key_ends_before_the_next_event() {
    let lobby = lobby_for(Backend::Memory).await;
    let (p, created) = crate::ratings::casual_match(&lobby).await;
    let app = spawn_service(lobby, unlimited());
    let id = created.match_id;
    let token = created.tokens[0].token.clone();
    let path = format!("/v1/matches/{id}");
    let last = app.get(&format!("{path}/events"), None).await.json["last_seq"]
        .as_u64()
        .unwrap();
    let stream = app
        .client
        .get(format!("{}{path}/stream?after={last}", app.base))
        .bearer_auth(&p.api_key)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let r = app
        .send(
            Method::POST,
            "/v1/players/me/key",
            Some(&p.api_key),
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mine = app.get(&path, Some(&token)).await;
    let action = mine.json["legal_actions"][0].clone();
    let r = app
        .post(&format!("{path}/actions"), Some(&token), action)
        .await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "the seat token still acts: {}",
        r.text
    );
    let (text, ended) = read_to_end(stream, Duration::from_secs(20)).await;
    assert!(ended, "the stream ended: {text}");
    assert!(!text.contains("id: "), "no event delivered: {text}");
    assert!(text.contains("\"code\":\"unauthorized\""), "{text}");
}
