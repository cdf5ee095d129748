//! What no single client may do: stall the server with bot work, grow it
//! without bound, dodge its limits with a forged `X-Forwarded-For`, hold
//! its connections, flood its logs, or slip past its checks.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use botifarra::http::ServeOptions;
use botifarra::service::Limits;
use botifarra::store::{MemoryLimits, MemoryStore};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_full, spawn_with, store_for, unlimited};
use crate::backends::both_stores;
use crate::raw;

/// A test bound on how long anything may take before the test gives up.
const PATIENCE: Duration = Duration::from_secs(20);

/// The body that used to hold a worker for 40 s: four Monte Carlo bots, a
/// far target, a thousand hands, automatic deals.
fn hostile_body() -> Value {
    let bot = json!({"kind": "bot", "bot": "montecarlo"});
    json!({
        "seats": [bot, bot, bot, bot],
        "auto_deal": true,
        "rules": {"max_hands": 1000, "target": 100000}
    })
}

fn options(f: impl FnOnce(&mut ServeOptions)) -> ServeOptions {
    let mut o = unlimited();
    f(&mut o);
    o
}

async fn memory_app(opts: ServeOptions) -> TestApp {
    spawn_with(store_for(Backend::Memory, None).await, opts).await
}

fn assert_problem(r: &crate::app::Reply, status: u16, code: &str) {
    assert_eq!(r.status.as_u16(), status, "{}", r.text);
    assert_eq!(r.content_type, "application/problem+json", "{}", r.text);
    assert_eq!(r.json["code"], code, "{}", r.text);
}

/// Finding 1: a hostile create plays a bounded number of steps, the rest
/// is played by the scheduler with nobody reading, and the server keeps
/// answering meanwhile.
async fn a_hostile_match_advances_in_bounded_steps(backend: Backend) {
    let store = store_for(backend, None).await;
    let app = Arc::new(spawn_with(store.clone(), unlimited()).await);
    let max_steps = Limits::default().max_steps as u64;
    let creator = Arc::clone(&app);
    let create =
        tokio::spawn(async move { creator.post("/v1/matches", None, hostile_body()).await });
    for _ in 0..5 {
        let h = tokio::time::timeout(PATIENCE, app.get("/healthz", None))
            .await
            .expect("/healthz answered while a hostile match was being created");
        assert_eq!(h.status, StatusCode::OK);
    }
    let created = create.await.unwrap();
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let v0 = created.json["view"]["version"].as_u64().unwrap();
    assert!(v0 <= max_steps, "the create played {v0} steps");
    let id = created.json["match_id"].as_str().unwrap().to_string();
    // Read from the store, never through the server.
    let stored = || async { store.load(&id).await.unwrap().unwrap().version };
    let until = tokio::time::Instant::now() + Duration::from_secs(20);
    while stored().await == v0 {
        assert!(
            tokio::time::Instant::now() < until,
            "the scheduler carries the match on with nobody reading"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let h = tokio::time::timeout(PATIENCE, app.get("/healthz", None))
        .await
        .expect("/healthz answered while the scheduler plays");
    assert_eq!(h.status, StatusCode::OK);
}

/// A match of house bots still plays to its end, read after read, with the
/// same result as ever (its score is the engine's, whatever the split).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_all_bot_match_finishes_over_successive_reads() {
    let app = memory_app(unlimited()).await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let (id, _) = app
        .create(
            json!({"seats": [bot, bot, bot, bot], "auto_deal": true, "rules": {"max_hands": 3, "target": 100000}}),
        )
        .await;
    let mut view = Value::Null;
    for _ in 0..200 {
        view = app.get(&format!("/v1/matches/{id}"), None).await.json;
        if view["phase"] == "match_over" {
            break;
        }
    }
    assert_eq!(view["phase"], "match_over", "{view}");
    assert_eq!(view["hands"].as_array().map(Vec::len), Some(3));
}

/// Finding 2 (size): a match deals no hand past the cap; the dealer's deal
/// is refused with `507 match_too_large` and the match stays readable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_deals_no_hand_past_the_cap() {
    let limits = Limits {
        max_hands_per_match: 1,
        ..Limits::default()
    };
    let app = spawn_full(
        store_for(Backend::Memory, None).await,
        unlimited(),
        limits,
        None,
    )
    .await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let body = json!({
        "seats": [{"kind": "remote"}, bot, bot, bot],
        "rules": {"first_dealer": 0, "target": 100000}
    });
    let (id, tokens) = app.create(body).await;
    let t0 = tokens[0].clone().unwrap();
    let deal = app
        .send(
            Method::POST,
            &format!("/v1/matches/{id}/deal"),
            Some(&t0),
            None,
            &[],
        )
        .await;
    assert_eq!(deal.status, StatusCode::OK, "{}", deal.text);
    let mut view = deal.json;
    for _ in 0..100 {
        if view["phase"] == "awaiting_deal" {
            break;
        }
        let moves = app
            .get(&format!("/v1/matches/{id}/legal-moves"), Some(&t0))
            .await;
        let action = moves.json["actions"][0].clone();
        if action.is_object() {
            view = app
                .post(&format!("/v1/matches/{id}/actions"), Some(&t0), action)
                .await
                .json;
        } else {
            view = app.get(&format!("/v1/matches/{id}"), Some(&t0)).await.json;
        }
    }
    assert_eq!(view["phase"], "awaiting_deal", "{view}");
    assert_eq!(view["turn"], 1, "{view}");
    // Seat 1 (a bot) deals next, but never does: the cap holds it.
    let again = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(again.json["version"], view["version"]);
    assert_eq!(again.json["phase"], "awaiting_deal");
}

/// Finding 2 (expiry): an unwritten match expires after the TTL, in the
/// memory store as in Redis.
async fn an_idle_match_expires(backend: Backend) {
    let store = crate::backends::store_with_ttl(backend, Duration::from_secs(1)).await;
    let app = spawn_with(store, unlimited()).await;
    let (id, _) = app.create(json!({})).await;
    assert_eq!(
        app.get(&format!("/v1/matches/{id}"), None).await.status,
        200
    );
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let r = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_problem(&r, 404, "match_not_found");
}

/// Finding 2 (bound): a full memory store refuses creates with
/// `507 store_full` and counts them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_memory_store_refuses_creates_clearly() {
    let store = MemoryStore::with_limits(MemoryLimits {
        max_matches: 2,
        ..MemoryLimits::default()
    });
    let app = spawn_with(Arc::new(store), unlimited()).await;
    app.create(json!({})).await;
    app.create(json!({})).await;
    let r = app.post("/v1/matches", None, json!({})).await;
    assert_problem(&r, 507, "store_full");
    let metrics = app.get("/metrics", None).await.text;
    assert!(
        metrics.contains("botifarra_limits_hit_total{limit=\"store_full\"}"),
        "{metrics}"
    );
}

/// Finding 3: behind one trusted proxy, the address is the entry that proxy
/// appended; rotating the entries to its left no longer escapes the limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_forwarded_for_does_not_escape_the_address_limit() {
    let app = memory_app(options(|o| {
        o.rate_limits.per_ip_per_sec = 5;
        o.rate_limits.trusted_proxies = 1;
    }))
    .await;
    let mut refused = 0;
    for i in 0..100 {
        let forged = format!("10.9.{}.{}, 203.0.113.7", i / 250, i % 250);
        let r = app
            .send(
                Method::GET,
                "/healthz",
                None,
                None,
                &[("x-forwarded-for", &forged)],
            )
            .await;
        refused += usize::from(r.status == StatusCode::TOO_MANY_REQUESTS);
    }
    assert!(refused >= 80, "only {refused} of 100 refused");
    // Another address behind the same proxy is not affected.
    let other = app
        .send(
            Method::GET,
            "/healthz",
            None,
            None,
            &[("x-forwarded-for", "203.0.113.8")],
        )
        .await;
    assert_eq!(other.status, StatusCode::OK);
}

/// Finding 4 (streams): one address may hold only so many event streams.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_its_streams() {
    let app = memory_app(options(|o| o.rate_limits.streams_per_ip = 2)).await;
    let (id, _) = app.create(json!({})).await;
    let url = format!("{}/v1/matches/{id}/stream", app.base);
    let first = app.client.get(&url).send().await.unwrap();
    let second = app.client.get(&url).send().await.unwrap();
    assert_eq!(
        (first.status(), second.status()),
        (StatusCode::OK, StatusCode::OK)
    );
    let third = app.get(&format!("/v1/matches/{id}/stream"), None).await;
    assert_problem(&third, 429, "rate_limited");
    assert!(
        third.json["detail"]
            .as_str()
            .unwrap()
            .contains("2 open event streams")
    );
    drop((first, second));
}

/// Finding 4 (connections): connections past the per-address cap are
/// answered `429` and closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_address_cap_are_refused_and_closed() {
    let app = memory_app(options(|o| o.rate_limits.connections_per_ip = 2)).await;
    let mut held = vec![raw::connect(&app.base).await, raw::connect(&app.base).await];
    for c in &mut held {
        let head = raw::get(c, "/healthz", PATIENCE).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    }
    let mut third = raw::connect(&app.base).await;
    raw::write(&mut third, b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n").await;
    let answer = raw::read_until_closed(&mut third, PATIENCE).await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(
        answer.contains("open connections per client address"),
        "{answer}"
    );
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );
}

/// Finding 4 (slow bodies): a body that does not arrive in time gets
/// `408 request_timeout` and the connection is closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_body_is_dropped() {
    let app = memory_app(options(|o| o.body_timeout = Duration::from_millis(500))).await;
    let mut conn = raw::connect(&app.base).await;
    raw::write(
        &mut conn,
        b"POST /v1/matches HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{",
    )
    .await;
    // The other 39 bytes never come; the server answers and hangs up.
    let answer = raw::read_until_closed(&mut conn, PATIENCE).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("request_timeout"), "{answer}");
}

/// Finding 4 (slow heads): a head that does not arrive in time closes the
/// connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_head_is_dropped() {
    let app = memory_app(options(|o| o.header_timeout = Duration::from_millis(500))).await;
    let mut conn = raw::connect(&app.base).await;
    raw::write(&mut conn, b"GET /healthz HTTP/1.1\r\nHost: te").await;
    let start = std::time::Instant::now();
    let answer = raw::read_until_closed(&mut conn, PATIENCE).await;
    assert!(
        start.elapsed() < PATIENCE,
        "the connection stayed open: {answer}"
    );
    assert!(!answer.contains("200 OK"), "{answer}");
}

/// Finding 5: refusals are counted, and logged only a few times a second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limited_requests_are_counted_and_logged_sampled() {
    let lines = crate::logs::capture();
    let app = memory_app(options(|o| o.rate_limits.per_ip_per_sec = 2)).await;
    let metric = |text: &str| -> u64 {
        text.lines()
            .find(|l| l.starts_with("botifarra_rate_limited_total{limit=\"ip\"}"))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let before = metric(&app.get("/metrics", None).await.text);
    // From an address of its own, so that the refusals other tests of this
    // binary provoke (all from 127.0.0.1) cannot be counted as its lines.
    let own = std::net::Ipv4Addr::new(127, 0, 0, 9);
    let client = reqwest::Client::builder()
        .local_address(std::net::IpAddr::V4(own))
        .build()
        .unwrap();
    let start = std::time::Instant::now();
    let mut refused = 0u64;
    for _ in 0..300 {
        let status = client
            .get(format!("{}/healthz", app.base))
            .send()
            .await
            .unwrap()
            .status();
        refused += u64::from(status == StatusCode::TOO_MANY_REQUESTS);
    }
    let elapsed = start.elapsed().as_secs() + 1;
    assert!(refused >= 250, "{refused}");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let after = metric(&app.get("/metrics", None).await.text);
    assert!(
        after - before >= refused,
        "{before} → {after}, {refused} refused"
    );
    let logged = lines.count_all(&["request refused by a limit", "limit=\"ip\"", "127.0.0.9"]);
    let per_sec = u64::from(botifarra::http::limit::LOG_LINES_PER_SEC);
    assert!(logged >= 1, "no refusal was logged");
    assert!(
        logged as u64 <= per_sec * (elapsed + 1),
        "{logged} lines for {refused} refusals in {elapsed} s"
    );
    assert_eq!(
        lines.count_all(&[" WARN ", "RateLimited"]),
        0,
        "a warning per refusal"
    );
}

/// Finding 6: authentication comes before guards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_without_a_token_is_unauthorized_whatever_its_guards() {
    let app = memory_app(unlimited()).await;
    let (id, _) = app.create(json!({})).await;
    let r = app
        .send(
            Method::POST,
            &format!("/v1/matches/{id}/deal"),
            None,
            None,
            &[("if-match", "not a version")],
        )
        .await;
    assert_problem(&r, 401, "unauthorized");
}

/// Finding 6: a body is JSON only with a JSON content type; an optional
/// body may still be left out entirely.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_must_be_sent_as_json() {
    let app = memory_app(unlimited()).await;
    let r = app
        .send(
            Method::POST,
            "/v1/matches",
            None,
            None,
            &[("content-type", "text/plain")],
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::CREATED,
        "an empty body needs no type: {}",
        r.text
    );
    let plain = app
        .client
        .post(format!("{}/v1/matches", app.base))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(plain.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(plain.headers()["content-type"], "application/problem+json");
    let body: Value = plain.json().await.unwrap();
    assert_eq!(body["code"], "unsupported_media_type");
    let (id, tokens) = app.create(json!({"rules": {"first_dealer": 0}})).await;
    let deal = app
        .client
        .post(format!("{}/v1/matches/{id}/deal", app.base))
        .bearer_auth(tokens[0].as_deref().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(deal.status(), StatusCode::OK);
}

/// Finding 6: seat names are printable text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_names_must_be_printable() {
    let app = memory_app(unlimited()).await;
    for name in [
        "a\u{0}b",
        "esc\u{1b}[31m",
        "two\nlines",
        "evil\u{202e}txt",
        "zero\u{200b}width",
    ] {
        let body = json!({"seats": [{"name": name}, {}, {}, {}]});
        let r = app.post("/v1/matches", None, body).await;
        assert_problem(&r, 400, "invalid_request");
    }
    let ok = json!({"seats": [{"name": "Núria"}, {}, {}, {}]});
    assert_eq!(
        app.post("/v1/matches", None, ok).await.status,
        StatusCode::CREATED
    );
}

/// Finding 6: `/metrics` behind a token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_may_require_a_token() {
    let app = memory_app(options(|o| o.metrics_token = Some("s3cret".into()))).await;
    assert_problem(&app.get("/metrics", None).await, 401, "unauthorized");
    assert_problem(
        &app.get("/metrics", Some("guess")).await,
        401,
        "unauthorized",
    );
    let r = app.get("/metrics", Some("s3cret")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text.contains("botifarra_http_requests_total"));
}

/// Finding 6: `/metrics` on its own address, and only there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_may_live_on_a_separate_address() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let metrics_base = format!("http://{}", listener.local_addr().unwrap());
    let store = store_for(Backend::Memory, None).await;
    let app = spawn_full(store, unlimited(), Limits::default(), Some(listener)).await;
    assert_problem(&app.get("/metrics", None).await, 404, "not_found");
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
    let m = TestApp::external(metrics_base);
    let r = m.get("/metrics", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text.contains("botifarra_http_requests_total"));
    assert_problem(&m.get("/healthz", None).await, 404, "not_found");
}

/// Finding 6: errors raised around the handlers are problem+json too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_is_a_problem() {
    let app = memory_app(unlimited()).await;
    let big = format!("{{\"seed\": \"{}\"}}", "a".repeat(100 * 1024));
    let r = app.post_raw("/v1/matches", &big).await;
    assert_problem(&r, 413, "payload_too_large");
}

/// Finding 7: the document warns that `stack_and_cut` gives the deal away.
#[test]
fn the_spec_warns_about_stack_and_cut() {
    let api: Value =
        serde_json::from_str(&botifarra::http::openapi_json().expect("the document serializes"))
            .unwrap();
    let d = api["components"]["schemas"]["Rules"]["properties"]["shuffle"]["description"]
        .as_str()
        .unwrap_or("");
    assert!(d.contains("stack_and_cut") && d.contains("rebuild"), "{d}");
    assert!(d.contains("full"), "{d}");
}

/// The spec states the limits of what a client chooses.
#[test]
fn the_spec_states_the_limits_of_rules_options() {
    let api: Value =
        serde_json::from_str(&botifarra::http::openapi_json().expect("the document serializes"))
            .unwrap();
    let s = &api["components"]["schemas"];
    assert_eq!(s["Rules"]["properties"]["target"]["maximum"], 100000);
    assert_eq!(s["Rules"]["properties"]["max_hands"]["maximum"], 1000);
    assert_eq!(
        s["CreateMatch"]["properties"]["move_timeout_ms"]["maximum"],
        86400000
    );
    assert_eq!(s["SeatSpec"]["properties"]["name"]["maxLength"], 64);
}

both_stores!(
    a_hostile_match_advances_in_bounded_steps,
    an_idle_match_expires
);
