//! Every error code of docs/api.md from a real request, always problem+json, and
//! nothing changed by a refused request.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, Reply, TestApp, spawn_app};
use crate::backends::both_stores;

fn assert_problem(r: &Reply, status: u16, code: &str) {
    assert_eq!(
        r.status.as_u16(),
        status,
        "expected {status} {code}, got {}",
        r.text
    );
    assert_eq!(r.content_type, "application/problem+json", "{}", r.text);
    assert_eq!(r.json["code"], code, "{}", r.text);
    assert_eq!(r.json["status"], status);
    for field in ["type", "title", "detail"] {
        assert!(
            r.json[field].is_string(),
            "problem without {field}: {}",
            r.text
        );
    }
}

/// A match with four remote seats and seat 0 dealing, plus its tokens.
async fn fresh_match(app: &TestApp) -> (String, Vec<String>) {
    let (id, tokens) = app
        .create(json!({"rules": {"first_dealer": 0}, "seed": "00".repeat(32)}))
        .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

async fn version(app: &TestApp, id: &str) -> u64 {
    app.get(&format!("/v1/matches/{id}"), None).await.json["version"]
        .as_u64()
        .unwrap()
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

async fn every_error_code_is_a_problem(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, t) = fresh_match(&app).await;
    let m = |p: &str| format!("/v1/matches/{id}{p}");

    // invalid_request: malformed JSON, unknown card, unknown field, bad rules, bad seed.
    let empty_body = app.send(Method::POST, "/v1/matches", None, None, &[]).await;
    assert_eq!(
        empty_body.status,
        StatusCode::CREATED,
        "an empty create body means defaults"
    );
    assert_problem(
        &app.post_raw("/v1/matches", "{nope").await,
        400,
        "invalid_request",
    );
    assert_problem(
        &app.post_raw(&m("/play"), "{\"card\": ").await,
        400,
        "invalid_request",
    );
    assert_problem(
        &app.post(&m("/play"), Some(&t[1]), json!({"card": "13Z"}))
            .await,
        400,
        "invalid_request",
    );
    assert_problem(
        &app.post(&m("/deal"), Some(&t[0]), json!({"bogus": 1}))
            .await,
        400,
        "invalid_request",
    );
    assert_problem(
        &app.post(
            "/v1/matches",
            None,
            json!({"rules": {"forced": true, "must_trump": true}}),
        )
        .await,
        400,
        "invalid_request",
    );
    assert_problem(
        &app.post("/v1/matches", None, json!({"seed": "xyz"})).await,
        400,
        "invalid_request",
    );
    assert_problem(
        &app.post("/v1/matches", None, json!({"seats": [{"kind": "remote"}]}))
            .await,
        400,
        "invalid_request",
    );
    assert_problem(
        &app.get(&m("/events?after=-1"), None).await,
        400,
        "invalid_request",
    );
    assert_problem(
        &app.get(&m("/events?wait_ms=999999"), None).await,
        400,
        "invalid_request",
    );
    let r = app
        .send(
            Method::POST,
            &m("/deal"),
            Some(&t[0]),
            Some(json!({})),
            &[("If-Match", "soon")],
        )
        .await;
    assert_problem(&r, 400, "invalid_request");

    // unauthorized: no token, a wrong token, a malformed header.
    assert_problem(
        &app.post(&m("/deal"), None, json!({})).await,
        401,
        "unauthorized",
    );
    assert_problem(
        &app.post(&m("/deal"), Some("bt_not-a-token"), json!({}))
            .await,
        401,
        "unauthorized",
    );
    assert_problem(
        &app.get(&m("/legal-moves"), None).await,
        401,
        "unauthorized",
    );
    assert_problem(
        &app.get(&m(""), Some("bt_wrong")).await,
        401,
        "unauthorized",
    );
    let r = app
        .send(
            Method::POST,
            &m("/deal"),
            None,
            Some(json!({})),
            &[("Authorization", "Basic abc")],
        )
        .await;
    assert_problem(&r, 401, "unauthorized");

    // forbidden: the body names another seat than the token's.
    assert_problem(
        &app.post(&m("/deal"), Some(&t[0]), json!({"seat": 2})).await,
        403,
        "forbidden",
    );

    // match_not_found.
    assert_problem(
        &app.get("/v1/matches/000000000000000000000000", None).await,
        404,
        "match_not_found",
    );
    assert_problem(
        &app.post("/v1/matches/nope/deal", Some(&t[0]), json!({}))
            .await,
        404,
        "match_not_found",
    );

    // wrong_phase and not_your_turn before the deal.
    assert_problem(
        &app.post(&m("/play"), Some(&t[1]), json!({"card": "9O"}))
            .await,
        409,
        "wrong_phase",
    );
    assert_problem(
        &app.post(&m("/deal"), Some(&t[2]), json!({})).await,
        409,
        "not_your_turn",
    );
    assert_problem(
        &app.post(&m("/resign"), Some(&t[2]), json!({})).await,
        409,
        "wrong_phase",
    );

    // version_conflict: a stale If-Match or expected_version changes nothing.
    let v = version(&app, &id).await;
    let r = app
        .send(
            Method::POST,
            &m("/deal"),
            Some(&t[0]),
            Some(json!({})),
            &[("If-Match", "\"41\"")],
        )
        .await;
    assert_problem(&r, 409, "version_conflict");
    assert_eq!(r.json["current_version"], v);
    assert_problem(
        &app.post(&m("/deal"), Some(&t[0]), json!({"expected_version": v + 3}))
            .await,
        409,
        "version_conflict",
    );
    assert_eq!(
        version(&app, &id).await,
        v,
        "refused requests change nothing"
    );

    to_playing(&app, &id, &t).await;
    // illegal_move: a card not in hand, and a card breaking a rule.
    let view = app.get(&m(""), Some(&t[1])).await.json;
    let hand: Vec<String> = view["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().into())
        .collect();
    let other = app.get(&m(""), Some(&t[2])).await.json["hand"][0]
        .as_str()
        .unwrap()
        .to_string();
    let r = app
        .post(&m("/play"), Some(&t[1]), json!({"card": other}))
        .await;
    assert_problem(&r, 422, "illegal_move");
    assert!(
        r.json["detail"]
            .as_str()
            .unwrap()
            .contains("not in your hand")
    );
    assert_eq!(r.json["rule"], "not_in_hand");
    let lead = hand[0].clone();
    assert_eq!(
        app.post(&m("/play"), Some(&t[1]), json!({"card": lead}))
            .await
            .status,
        200
    );
    let led_suit = lead.chars().last().unwrap();
    let h2 = app.get(&m(""), Some(&t[2])).await.json;
    let legal: Vec<String> = h2["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["card"].as_str().unwrap().into())
        .collect();
    let hand2: Vec<String> = h2["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().into())
        .collect();
    // The fixed seed makes this position known: seat 2 holds cards it may not play.
    let bad = hand2
        .iter()
        .find(|c| !legal.contains(c))
        .expect("a card seat 2 may not play");
    {
        let before = version(&app, &id).await;
        let r = app
            .post(&m("/play"), Some(&t[2]), json!({"card": bad}))
            .await;
        assert_problem(&r, 422, "illegal_move");
        let detail = r.json["detail"].as_str().unwrap();
        assert!(
            detail.starts_with("must "),
            "the detail names the rule: {detail} (led {led_suit})"
        );
        let rule = r.json["rule"].as_str().unwrap();
        assert!(rule.starts_with("must_"), "and so does `rule`: {rule}");
        assert_eq!(version(&app, &id).await, before);
    }
    assert_problem(
        &app.post(&m("/play"), Some(&t[0]), json!({"card": hand2[0]}))
            .await,
        409,
        "not_your_turn",
    );

    // Unknown route, wrong method, oversized body: problem+json too.
    assert_problem(&app.get("/v2/nothing", None).await, 404, "not_found");
    // A method the resource does not take: 405, with what it takes.
    assert_problem(
        &app.send(Method::DELETE, &m(""), None, None, &[]).await,
        405,
        "method_not_allowed",
    );
    let huge = json!({"card": "x".repeat(200_000)});
    assert_problem(
        &app.post(&m("/play"), Some(&t[2]), huge).await,
        413,
        "payload_too_large",
    );
}

async fn idempotent_retry_returns_the_first_answer(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, t) = fresh_match(&app).await;
    let path = format!("/v1/matches/{id}/deal");
    let key = [("Idempotency-Key", "deal-once-123")];
    let first = app
        .send(Method::POST, &path, Some(&t[0]), Some(json!({})), &key)
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    let again = app
        .send(Method::POST, &path, Some(&t[0]), Some(json!({})), &key)
        .await;
    assert_eq!(again.status, 200, "a retry is not an error: {}", again.text);
    assert_eq!(first.text, again.text, "the retry gets the first answer");
    let events = app
        .get(&format!("/v1/matches/{id}/events"), None)
        .await
        .json;
    let deals = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "hand_dealt")
        .count();
    assert_eq!(deals, 1, "the retry dealt nothing");
    // Without the key the same request is refused: the hand is dealt already.
    let r = app.post(&path, Some(&t[0]), json!({})).await;
    assert_problem(&r, 409, "wrong_phase");
}

async fn concurrent_plays_of_one_turn_accept_exactly_one(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, t) = fresh_match(&app).await;
    to_playing(&app, &id, &t).await;
    let view = app
        .get(&format!("/v1/matches/{id}"), Some(&t[1]))
        .await
        .json;
    let v0 = view["version"].as_u64().unwrap();
    let legal: Vec<Value> = view["legal_actions"].as_array().unwrap().clone();
    let mut tasks = Vec::new();
    for i in 0..32 {
        let client = app.client.clone();
        let url = format!("{}/v1/matches/{id}/actions", app.base);
        let token = t[1].clone();
        let action = legal[i % legal.len()].clone();
        tasks.push(tokio::spawn(async move {
            client
                .post(url)
                .bearer_auth(token)
                .json(&action)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.unwrap());
    }
    let ok = statuses.iter().filter(|s| **s == 200).count();
    assert_eq!(ok, 1, "exactly one play accepted: {statuses:?}");
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 409),
        "the others are 409: {statuses:?}"
    );
    let after = app
        .get(&format!("/v1/matches/{id}"), Some(&t[1]))
        .await
        .json;
    assert_eq!(after["version"].as_u64().unwrap(), v0 + 1);
    assert_eq!(after["hand"].as_array().unwrap().len(), 11);
    assert_eq!(after["trick"]["cards"].as_array().unwrap().len(), 1);
    let events = app
        .get(&format!("/v1/matches/{id}/events"), None)
        .await
        .json;
    let plays = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "card_played")
        .count();
    assert_eq!(plays, 1);
}

both_stores!(
    every_error_code_is_a_problem,
    idempotent_retry_returns_the_first_answer,
    concurrent_plays_of_one_turn_accept_exactly_one,
);
