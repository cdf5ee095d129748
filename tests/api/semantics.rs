//! HTTP semantics: `Location` on creation, `ETag` and `If-None-Match` on
//! the reads, `405` with `Allow`, a reused `Idempotency-Key`, resuming past
//! the last event, the rate-limit fields, and problems in three languages
//! with the rule an illegal move breaks.

use botifarra::http::ServeOptions;
use botifarra::http::limit::RateLimits;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, Reply, TestApp, spawn_app, spawn_with, store_for};
use crate::backends::both_stores;

/// A match with four remote seats, seat 0 dealing, a fixed seed; its tokens.
async fn fresh_match(app: &TestApp) -> (String, Vec<String>) {
    let (id, tokens) = app
        .create(json!({"rules": {"first_dealer": 0}, "seed": "00".repeat(32)}))
        .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

/// Deals and names oros as trump, both defenders pass: play begins at seat 1.
async fn to_playing(app: &TestApp, id: &str, t: &[String]) {
    let steps = [
        (0, "deal", json!({})),
        (0, "trump", json!({"choice": "O"})),
        (1, "double", json!({"call": "pass"})),
        (3, "double", json!({"call": "pass"})),
    ];
    for (seat, what, body) in steps {
        let r = app
            .post(&format!("/v1/matches/{id}/{what}"), Some(&t[seat]), body)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{what}: {}", r.text);
    }
}

/// A GET with headers, returning the raw response (for its headers).
async fn raw_get(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut req = app.client.get(format!("{}{path}", app.base));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.unwrap()
}

fn header(r: &reqwest::Response, name: &str) -> String {
    r.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

async fn created_match_is_at_its_location(backend: Backend) {
    let app = spawn_app(backend).await;
    let r = app
        .client
        .post(format!("{}/v1/matches", app.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let location = header(&r, "location");
    let body: Value = r.json().await.unwrap();
    let id = body["match_id"].as_str().unwrap();
    assert_eq!(location, format!("/v1/matches/{id}"));
    let view = app.get(&location, None).await;
    assert_eq!(view.status, 200);
    assert_eq!(view.json["match_id"], id);
}

async fn views_carry_an_etag_and_answer_304_while_unchanged(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, t) = fresh_match(&app).await;
    let path = format!("/v1/matches/{id}");
    for (sub, token) in [
        ("", Some(t[0].as_str())),
        ("", None),
        ("/legal-moves", Some(t[0].as_str())),
        ("/history", Some(t[1].as_str())),
    ] {
        let url = format!("{path}{sub}");
        let first = raw_get(&app, &url, token, &[]).await;
        assert_eq!(first.status(), 200, "{url}");
        let etag = header(&first, "etag");
        assert!(etag.starts_with("\"0-"), "{url}: {etag}");
        assert!(header(&first, "vary").contains("Authorization"), "{url}");
        let again = raw_get(&app, &url, token, &[("If-None-Match", &etag)]).await;
        assert_eq!(again.status(), 304, "{url}");
        assert_eq!(header(&again, "etag"), etag);
        assert!(again.text().await.unwrap().is_empty(), "304 has no body");
        // A tag of another version or viewer gets the whole answer.
        let stale = raw_get(&app, &url, token, &[("If-None-Match", "\"7-seat3\"")]).await;
        assert_eq!(stale.status(), 200, "{url}");
    }
    // Each viewer's representation has its own tag.
    let seat0 = header(&raw_get(&app, &path, Some(&t[0]), &[]).await, "etag");
    let seat1 = header(&raw_get(&app, &path, Some(&t[1]), &[]).await, "etag");
    let spectator = header(&raw_get(&app, &path, None, &[]).await, "etag");
    assert_eq!(seat0, "\"0-seat0\"");
    assert_ne!(seat0, seat1);
    assert_eq!(spectator, "\"0-spectator\"");
    // A seat's tag does not validate another seat's view.
    let other = raw_get(&app, &path, Some(&t[1]), &[("If-None-Match", &seat0)]).await;
    assert_eq!(other.status(), 200);
    // The tag works as `If-Match` on an action; then the view changes.
    let r = app
        .send(
            Method::POST,
            &format!("{path}/deal"),
            Some(&t[0]),
            Some(json!({})),
            &[("If-Match", &seat0)],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let after = raw_get(&app, &path, Some(&t[0]), &[("If-None-Match", &seat0)]).await;
    assert_eq!(after.status(), 200);
    assert_eq!(header(&after, "etag"), "\"1-seat0\"");
    // A wrong token is still refused, whatever the tag.
    let wrong = raw_get(&app, &path, Some("nope"), &[("If-None-Match", "*")]).await;
    assert_eq!(wrong.status(), 401);
}

async fn a_known_path_asked_with_another_method_answers_405_with_allow(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, _) = fresh_match(&app).await;
    for (method, path, allow) in [
        (Method::POST, format!("/v1/matches/{id}"), "GET"),
        (Method::DELETE, format!("/v1/matches/{id}/actions"), "POST"),
        (Method::PUT, "/v1/matches".to_string(), "POST"),
        (Method::POST, "/healthz".to_string(), "GET"),
    ] {
        let r = app
            .client
            .request(method.clone(), format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 405, "{method} {path}");
        assert_eq!(header(&r, "allow"), allow, "{method} {path}");
        assert_eq!(header(&r, "content-type"), "application/problem+json");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["code"], "method_not_allowed");
        assert!(body["detail"].as_str().unwrap().contains(allow));
    }
    let unknown = app.get("/v1/matches/x/nothing", None).await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.json["code"], "not_found");
}

async fn a_reused_idempotency_key_with_another_request_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, t) = fresh_match(&app).await;
    to_playing(&app, &id, &t).await;
    let path = format!("/v1/matches/{id}");
    let view = app.get(&path, Some(&t[1])).await.json;
    let legal = view["legal_actions"].as_array().unwrap().clone();
    assert!(legal.len() >= 2, "seat 1 leads with a choice of cards");
    let key = [("Idempotency-Key", "card-1")];
    let actions = format!("{path}/actions");
    let first = app
        .send(
            Method::POST,
            &actions,
            Some(&t[1]),
            Some(legal[0].clone()),
            &key,
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    let before = app.get(&format!("{path}/events"), None).await.json["last_seq"].clone();
    // The same key with another card: refused, nothing changes.
    let other = app
        .send(
            Method::POST,
            &actions,
            Some(&t[1]),
            Some(legal[1].clone()),
            &key,
        )
        .await;
    assert_eq!(other.status, 422, "{}", other.text);
    assert_eq!(other.json["code"], "idempotency_key_reused");
    assert_eq!(other.content_type, "application/problem+json");
    // The same card with other guards is another request too.
    let guarded = app
        .send(
            Method::POST,
            &actions,
            Some(&t[1]),
            Some(json!({"type": "play", "card": legal[0]["card"], "seat": 1})),
            &key,
        )
        .await;
    assert_eq!(guarded.json["code"], "idempotency_key_reused");
    let now = app.get(&path, Some(&t[1])).await.json;
    assert_eq!(now["version"], first.json["version"], "nothing changed");
    assert_eq!(
        app.get(&format!("{path}/events"), None).await.json["last_seq"],
        before
    );
    // The same request again, even through `/play`, is a retry.
    let retry = app
        .send(
            Method::POST,
            &format!("{path}/play"),
            Some(&t[1]),
            Some(json!({"card": legal[0]["card"]})),
            &key,
        )
        .await;
    assert_eq!(retry.status, 200, "{}", retry.text);
    assert_eq!(retry.text, first.text);
    // Resigning under the card's key is another request, refused as the
    // document says: the hand goes on.
    let resign = app
        .send(
            Method::POST,
            &format!("{path}/resign"),
            Some(&t[1]),
            None,
            &key,
        )
        .await;
    assert_eq!(resign.status, 422, "{}", resign.text);
    assert_eq!(resign.json["code"], "idempotency_key_reused");
    let after = app.get(&path, Some(&t[1])).await.json;
    assert_eq!(after["version"], first.json["version"], "nothing changed");
    assert_eq!(after["phase"], "playing");
}

async fn resuming_after_an_event_the_match_never_made_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, t) = fresh_match(&app).await;
    let events = format!("/v1/matches/{id}/events");
    let last = app.get(&events, None).await.json["last_seq"]
        .as_u64()
        .unwrap();
    let at_end = app.get(&format!("{events}?after={last}"), None).await;
    assert_eq!(at_end.status, 200, "{}", at_end.text);
    for query in [
        format!("?after={}", last + 1),
        format!("?after={}&wait_ms=20000", last + 5),
    ] {
        let r = app.get(&format!("{events}{query}"), Some(&t[0])).await;
        assert_eq!(r.status, 400, "{query}: {}", r.text);
        assert_eq!(r.json["code"], "invalid_request");
        assert!(
            r.json["detail"].as_str().unwrap().contains("last event"),
            "{}",
            r.text
        );
    }
    let stream = format!("/v1/matches/{id}/stream");
    let r = raw_get(
        &app,
        &stream,
        None,
        &[("Last-Event-ID", &(last + 3).to_string())],
    )
    .await;
    assert_eq!(r.status(), 400);
    let r = app.get(&format!("{stream}?after={}", last + 3), None).await;
    assert_eq!(r.status, 400, "{}", r.text);
}

/// Posts `body` to `path` (with `key` as the bearer): a `201` whose
/// `Location` leads, with the same key, to what it made.
async fn created_at(app: &TestApp, path: &str, key: Option<&str>, body: Value) -> (String, Value) {
    let mut req = app.client.post(format!("{}{path}", app.base)).json(&body);
    if let Some(k) = key {
        req = req.bearer_auth(k);
    }
    let r = req.send().await.unwrap();
    assert_eq!(r.status(), 201, "POST {path}");
    let location = header(&r, "location");
    let made: Value = r.json().await.unwrap();
    let read = app.get(&location, key).await;
    assert_eq!(read.status, 200, "GET {location}: {}", read.text);
    (location, made)
}

async fn every_creation_is_at_its_location(backend: Backend) {
    let app = spawn_app(backend).await;
    let body = json!({"name": "ana", "kind": "bot"});
    let (location, ana) = created_at(&app, "/v1/players", None, body).await;
    let id = ana["player"]["id"].as_str().unwrap();
    assert_eq!(location, format!("/v1/players/{id}"));
    let key = ana["api_key"].as_str().unwrap();
    let body = json!({"name": "bru", "kind": "bot"});
    let (_, bru) = created_at(&app, "/v1/players", None, body).await;
    let body =
        json!({"seats": [{"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]});
    let (location, table) = created_at(&app, "/v1/tables", None, body).await;
    let table_id = table["table"]["table_id"].as_str().unwrap();
    assert_eq!(location, format!("/v1/tables/{table_id}"));
    let body = json!({"variant": "abarrotada", "rated": false});
    let (location, ticket) = created_at(&app, "/v1/queue", Some(key), body).await;
    let ticket_id = ticket["ticket_id"].as_str().unwrap();
    assert_eq!(location, format!("/v1/queue/{ticket_id}"));
    let body =
        json!({"variant": "pairs", "opponents": [bru["player"]["id"]], "fill_with": "medium"});
    let (location, challenge) = created_at(&app, "/v1/challenges", Some(key), body).await;
    let challenge_id = challenge["challenge_id"].as_str().unwrap();
    assert_eq!(location, format!("/v1/challenges/{challenge_id}"));
}

both_stores!(
    created_match_is_at_its_location,
    every_creation_is_at_its_location,
    views_carry_an_etag_and_answer_304_while_unchanged,
    a_known_path_asked_with_another_method_answers_405_with_allow,
    a_reused_idempotency_key_with_another_request_is_refused,
    resuming_after_an_event_the_match_never_made_is_refused,
);

fn limited(per_ip_per_sec: u32, creates_per_min: u32) -> ServeOptions {
    ServeOptions {
        workers: Some(2),
        rate_limits: RateLimits {
            per_ip_per_sec,
            per_token_per_sec: 0,
            per_match_per_sec: 0,
            creates_per_min,
            ..RateLimits::default()
        },
        ..ServeOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_announce_the_rate_limits_and_a_refusal_says_when_to_retry() {
    let app = spawn_with(store_for(Backend::Memory, None).await, limited(0, 2)).await;
    let create = || {
        app.client
            .post(format!("{}/v1/matches", app.base))
            .json(&json!({}))
            .send()
    };
    let first = create().await.unwrap();
    assert_eq!(first.status(), 201);
    assert_eq!(header(&first, "ratelimit-policy"), "\"create\";q=2;w=60");
    assert_eq!(header(&first, "ratelimit"), "\"create\";r=1;t=30");
    let second = create().await.unwrap();
    assert_eq!(second.status(), 201);
    assert!(header(&second, "ratelimit").starts_with("\"create\";r=0;t="));
    let refused = create().await.unwrap();
    assert_eq!(refused.status(), 429);
    let retry_after = header(&refused, "retry-after");
    assert!(retry_after.parse::<u64>().unwrap() >= 1);
    assert_eq!(
        header(&refused, "ratelimit"),
        format!("\"create\";r=0;t={retry_after}")
    );
    assert_eq!(header(&refused, "ratelimit-policy"), "\"create\";q=2;w=60");
    // Reads count against the per-address limit only.
    let app = spawn_with(store_for(Backend::Memory, None).await, limited(100, 2)).await;
    let r = raw_get(&app, "/healthz", None, &[]).await;
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "ratelimit-policy"), "\"ip\";q=200;w=2");
    assert!(header(&r, "ratelimit").starts_with("\"ip\";r=199;t="));
    // Without limits, nothing is announced.
    let app = spawn_app(Backend::Memory).await;
    let r = raw_get(&app, "/healthz", None, &[]).await;
    assert!(r.headers().get("ratelimit").is_none());
}

/// A problem in the language asked for, with its `Content-Language`.
async fn in_language(
    app: &TestApp,
    path: &str,
    token: &str,
    body: Value,
    lang: &str,
) -> (Reply, String) {
    let r = app
        .client
        .post(format!("{}{path}", app.base))
        .bearer_auth(token)
        .header("Accept-Language", lang)
        .json(&body)
        .send()
        .await
        .unwrap();
    let content_language = header(&r, "content-language");
    let status = r.status();
    let content_type = header(&r, "content-type");
    let text = r.text().await.unwrap();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    (
        Reply {
            status,
            content_type,
            text,
            json,
        },
        content_language,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_name_their_rule_in_catalan_spanish_or_english() {
    let app = spawn_app(Backend::Memory).await;
    let (id, t) = fresh_match(&app).await;
    let path = format!("/v1/matches/{id}");
    // Before the deal: a wrong phase names its rule too.
    let (r, lang) = in_language(
        &app,
        &format!("{path}/play"),
        &t[1],
        json!({"card": "9O"}),
        "ca",
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(
        (r.json["rule"].as_str(), lang.as_str()),
        (Some("wrong_phase"), "ca")
    );
    assert_eq!(r.json["title"], "Fase equivocada");
    to_playing(&app, &id, &t).await;
    let other = app.get(&path, Some(&t[2])).await.json["hand"][0].clone();
    let cases = [
        (
            "",
            "en",
            "Illegal move",
            format!("{} is not in your hand", other.as_str().unwrap()),
        ),
        (
            "es-ES,es;q=0.9",
            "es",
            "Jugada no permitida",
            format!("no tienes la carta {} en la mano", other.as_str().unwrap()),
        ),
        (
            "fr;q=1, en;q=0.2, ca;q=0.8",
            "ca",
            "Jugada no permesa",
            format!("no tens la carta {} a la mà", other.as_str().unwrap()),
        ),
    ];
    for (accept, tag, title, detail) in cases {
        let (r, lang) = in_language(
            &app,
            &format!("{path}/actions"),
            &t[1],
            json!({"type": "play", "card": other}),
            accept,
        )
        .await;
        assert_eq!(r.status, 422, "{}", r.text);
        assert_eq!(r.content_type, "application/problem+json");
        assert_eq!(lang, tag, "{accept}");
        assert_eq!(r.json["code"], "illegal_move");
        assert_eq!(
            r.json["rule"], "not_in_hand",
            "the same word in every language"
        );
        assert_eq!(r.json["title"], title);
        assert_eq!(r.json["detail"], detail.as_str());
    }
    // Seat 1 leads; seat 2 then holds cards it may not play (fixed seed).
    let lead = app.get(&path, Some(&t[1])).await.json["legal_actions"][0].clone();
    assert_eq!(
        app.post(&format!("{path}/actions"), Some(&t[1]), lead)
            .await
            .status,
        200
    );
    let v2 = app.get(&path, Some(&t[2])).await.json;
    let legal = v2["legal_actions"].as_array().unwrap();
    let bad = v2["hand"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| !legal.iter().any(|a| a["card"] == **c))
        .expect("a card seat 2 may not play")
        .clone();
    let mut rules = Vec::new();
    for (accept, word) in [("en", "must"), ("ca", "has de"), ("es", "debes")] {
        let (r, lang) = in_language(
            &app,
            &format!("{path}/play"),
            &t[2],
            json!({"card": bad}),
            accept,
        )
        .await;
        assert_eq!(r.status, 422, "{}", r.text);
        assert_eq!(lang, accept);
        assert!(
            r.json["detail"].as_str().unwrap().contains(word),
            "{}",
            r.text
        );
        rules.push(r.json["rule"].as_str().unwrap().to_string());
    }
    assert!(rules[0].starts_with("must_"), "{rules:?}");
    assert!(rules.iter().all(|r| *r == rules[0]), "{rules:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_problem_speaks_the_language_asked_for() {
    let app = spawn_app(Backend::Memory).await;
    let get = |path: &'static str, lang: &'static str| {
        app.client
            .get(format!("{}{path}", app.base))
            .header("Accept-Language", lang)
            .send()
    };
    let r = get("/v1/matches/nope", "ca").await.unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(header(&r, "content-language"), "ca");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["title"], "No s'ha trobat la partida");
    assert_eq!(
        body["detail"],
        "no hi ha cap partida amb aquest identificador"
    );
    let r = get("/nowhere", "es").await.unwrap();
    assert_eq!(header(&r, "content-language"), "es");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["title"], "No encontrado");
    assert_eq!(body["detail"], "no hay ningún recurso en /nowhere");
    // An extractor's refusal, and English by default.
    let r = get("/v1/matches/x/events?wait_ms=oops", "es")
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["title"], "Solicitud no válida");
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .starts_with("consulta no válida: ")
    );
    let r = get("/v1/matches/nope", "de").await.unwrap();
    assert_eq!(header(&r, "content-language"), "en");
    assert_eq!(r.json::<Value>().await.unwrap()["title"], "Match not found");
}
