//! Rematch: a finished match's players ask for another, each one seat
//! further on; offered to every player, started when all accept, closed
//! by a decline; refused before the end and to anyone not in the match.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, Reply, TestApp, spawn_lobby_app};
use crate::backends::both_stores;
use crate::lobby_client::{PlayerKey, play_to_end, player_events, register};

/// A pairs match of one hand, `a` (seat 0) against `b` (seat 1), house
/// bots `random` as partners, made by challenge; not played yet.
async fn pairs_match(app: &TestApp) -> (String, PlayerKey, PlayerKey) {
    let a = register(app, "alba", "bot").await;
    let b = register(app, "bru", "bot").await;
    let r = app
        .post(
            "/v1/challenges",
            Some(&a.key),
            json!({"variant": "pairs", "opponents": [b.id], "fill_with": "random",
                   "rules": {"variant": "pairs", "max_hands": 1}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["challenge_id"].as_str().unwrap().to_string();
    let r = app
        .post(
            &format!("/v1/challenges/{id}/accept"),
            Some(&b.key),
            json!({}),
        )
        .await;
    assert_eq!(r.json["status"], "started", "{}", r.text);
    (id, a, b)
}

/// [`pairs_match`], played to its end by both players at once.
async fn finished_match(app: &TestApp) -> (String, PlayerKey, PlayerKey) {
    let (id, a, b) = pairs_match(app).await;
    let plays: Vec<_> = [a.key.clone(), b.key.clone()]
        .into_iter()
        .map(|key| {
            let (app, id) = (TestApp::external(app.base.clone()), id.clone());
            tokio::spawn(async move { play_to_end(&app, &id, &key).await })
        })
        .collect();
    for p in plays {
        p.await.unwrap();
    }
    (id, a, b)
}

async fn rematch(app: &TestApp, id: &str, key: Option<&str>) -> Reply {
    app.post(&format!("/v1/matches/{id}/rematch"), key, json!({}))
        .await
}

/// Who sits at each seat of a view or challenge: player ids, or bots.
fn sitters(seats: &Value) -> Vec<String> {
    seats
        .as_array()
        .unwrap()
        .iter()
        .map(|s| match s["player"]["id"].as_str() {
            Some(id) if !id.starts_with("house-") => id.to_string(),
            _ => "bot".to_string(),
        })
        .collect()
}

async fn both_ask_and_the_rematch_starts_one_seat_further_on(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let (id, a, b) = finished_match(&app).await;
    let old = app.get(&format!("/v1/matches/{id}"), None).await.json;
    assert_eq!(old["phase"], "match_over");
    assert_eq!(
        sitters(&old["seats"]),
        [a.id.as_str(), b.id.as_str(), "bot", "bot"]
    );

    // b asks first: it offers the rematch, a is invited.
    let r = rematch(&app, &id, Some(&b.key)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["status"], "pending");
    assert_eq!(r.json["rematch_of"], id.as_str());
    assert_eq!(r.json["rules"]["max_hands"], 1, "the same rules");
    assert_eq!(r.json["waiting_for"], json!([a.id]));
    // Each player one seat further on: old seat 1 (b) at 0, old seat 0 (a) at 3.
    assert_eq!(
        sitters(&r.json["seats"]),
        [b.id.as_str(), "bot", "bot", a.id.as_str()]
    );
    assert_eq!(r.json["seats"][0]["role"], "challenger");
    assert_eq!(r.json["seats"][3]["role"], "opponent");
    let rid = r.json["challenge_id"].as_str().unwrap().to_string();
    assert_eq!(
        r.json["seats"][3]["team"], r.json["seats"][1]["team"],
        "a now sits on the other side"
    );
    let heard: Vec<Value> = player_events(&app, &a.key, 0, 0).await["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "challenge_received" && e["challenge_id"] == rid.as_str())
        .cloned()
        .collect();
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(heard[0]["rematch_of"], id.as_str());
    assert_eq!(heard[0]["seat"], 3);
    // Asking again as its challenger answers the offer as it is.
    let again = rematch(&app, &id, Some(&b.key)).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json["challenge_id"], rid.as_str());
    assert_eq!(again.json["status"], "pending");

    // a asks too: that accepts, and the rematch starts.
    let r = rematch(&app, &id, Some(&a.key)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "started", "{}", r.text);
    assert_eq!(r.json["match_id"], rid.as_str());
    let new = app.get(&format!("/v1/matches/{rid}"), Some(&a.key)).await;
    assert_eq!(new.status, StatusCode::OK, "{}", new.text);
    assert_eq!(new.json["you"], 3);
    assert_eq!(
        sitters(&new.json["seats"]),
        [b.id.as_str(), "bot", "bot", a.id.as_str()]
    );
    assert_eq!(new.json["rules"]["max_hands"], 1);
    let started = player_events(&app, &b.key, 0, 0).await;
    assert!(
        started["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "match_started" && e["match_id"] == rid.as_str()),
        "{started}"
    );
}

async fn a_decline_closes_the_rematch_and_no_match_starts(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let (id, a, b) = finished_match(&app).await;
    let r = rematch(&app, &id, Some(&a.key)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let rid = r.json["challenge_id"].as_str().unwrap().to_string();
    let r = app
        .post(
            &format!("/v1/challenges/{rid}/decline"),
            Some(&b.key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "declined");
    assert_eq!(
        app.get(&format!("/v1/matches/{rid}"), None).await.status,
        StatusCode::NOT_FOUND
    );
    // The offer is closed: asking again is refused, and nothing starts.
    let r = rematch(&app, &id, Some(&b.key)).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "challenge_closed");
    assert_eq!(
        app.get(&format!("/v1/matches/{rid}"), None).await.status,
        StatusCode::NOT_FOUND
    );
}

async fn a_rematch_is_refused_before_the_end_and_to_outsiders(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let (id, a, _) = pairs_match(&app).await;
    let r = rematch(&app, &id, Some(&a.key)).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.content_type, "application/problem+json");
    assert_eq!(r.json["code"], "match_not_over");
    let (done, _, _) = finished_match(&app).await;
    let outsider = register(&app, "outsider", "bot").await;
    let r = rematch(&app, &done, Some(&outsider.key)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    assert_eq!(r.json["code"], "forbidden");
    let r = rematch(&app, &done, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    let r = rematch(&app, "000000000000000000000000", Some(&a.key)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    assert_eq!(r.json["code"], "match_not_found");
    // None of these made an offer.
    let list = app.get("/v1/challenges", Some(&a.key)).await;
    assert_eq!(list.json["outgoing"], json!([]), "{}", list.text);
}

both_stores!(
    both_ask_and_the_rematch_starts_one_seat_further_on,
    a_decline_closes_the_rematch_and_no_match_starts,
    a_rematch_is_refused_before_the_end_and_to_outsiders,
);
