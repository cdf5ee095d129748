//! Consent: no request seats a player but with that player's key. The
//! attack of issue 27 (anonymous matches and tables naming a victim, to
//! push its events out of its buffer and raise its matches played) is
//! refused and leaves the victim untouched; a seat naming another player
//! at a table is reserved for it, taken only with its key, or declined.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, Reply, TestApp, spawn_lobby_app};
use crate::backends::both_stores;
use crate::lobby_client::{PlayerKey, create_table_as, four_open, join, player_events, register};

/// The types of the events of `key`'s stream, oldest first, and its last
/// number.
async fn stream(app: &TestApp, key: &str) -> (Vec<String>, u64) {
    let page = player_events(app, key, 0, 0).await;
    let types = page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect();
    (types, page["last_seq"].as_u64().unwrap())
}

fn refused(r: &Reply, status: StatusCode, code: &str) {
    assert_eq!(r.status, status, "{}", r.text);
    assert_eq!(r.json["code"], code, "{}", r.text);
}

async fn matches_played(app: &TestApp, id: &str) -> u64 {
    let r = app.get(&format!("/v1/players/{id}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json["matches_played"].as_u64().unwrap()
}

async fn an_anonymous_request_seats_no_stranger(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let victim = register(&app, "victim", "human").await;
    let friend = register(&app, "friend", "human").await;
    let attacker = register(&app, "attacker", "bot").await;
    // A real challenge the attack once pushed out of the victim's buffer.
    let body = json!({"variant": "pairs", "opponents": [victim.id], "fill_with": "random"});
    let r = app.post("/v1/challenges", Some(&friend.key), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let (before, last_before) = stream(&app, &victim.key).await;
    assert_eq!(before, ["challenge_received"]);

    let bots = json!({"kind": "bot", "bot": "random"});
    let as_victim = json!({"player": victim.id});
    let matched = json!({"auto_deal": true, "seats": [as_victim, bots, bots, bots]});
    let tabled = json!({"seats": [{"kind": "remote", "player": victim.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]});
    let reserved = json!({"seats": [{"kind": "reserved", "player": victim.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]});
    let mut tried = 0;
    for _ in 0..80 {
        let r = app.post("/v1/matches", None, matched.clone()).await;
        refused(&r, StatusCode::FORBIDDEN, "consent_required");
        let r = app.post("/v1/tables", None, tabled.clone()).await;
        refused(&r, StatusCode::FORBIDDEN, "consent_required");
        tried += 2;
    }
    // Another player's key does not seat the victim either, in a match;
    // a seat token is no key at all.
    let r = app
        .post("/v1/matches", Some(&attacker.key), matched.clone())
        .await;
    refused(&r, StatusCode::FORBIDDEN, "consent_required");
    assert!(
        r.json["detail"]
            .as_str()
            .unwrap()
            .contains("POST /v1/challenges"),
        "{}",
        r.text
    );
    let token = app.create(json!({})).await.1[0].clone().unwrap();
    let r = app.post("/v1/matches", Some(&token), matched.clone()).await;
    refused(&r, StatusCode::UNAUTHORIZED, "unauthorized");
    let r = app.post("/v1/tables", None, reserved).await;
    refused(&r, StatusCode::FORBIDDEN, "consent_required");
    tried += 3;

    let (after, last_after) = stream(&app, &victim.key).await;
    assert_eq!(
        after, before,
        "{tried} refused requests told the victim nothing"
    );
    assert_eq!(last_after, last_before);
    assert_eq!(matches_played(&app, &victim.id).await, 0);

    // The victim's own key seats it: the public behaviour is unchanged
    // for a player seating itself and for anonymous seats.
    let r = app.post("/v1/matches", Some(&victim.key), matched).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(
        r.json["view"]["seats"][0]["player"]["id"],
        victim.id.as_str()
    );
    let r = app.post("/v1/matches", None, json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["tokens"].as_array().unwrap().len(), 4);
}

async fn decline_seat(app: &TestApp, id: &str, key: Option<&str>) -> Reply {
    app.send(
        Method::POST,
        &format!("/v1/tables/{id}/decline"),
        key,
        None,
        &[],
    )
    .await
}

/// The `table_invited` events of `p`'s stream.
async fn invitations(app: &TestApp, p: &PlayerKey) -> Vec<Value> {
    player_events(app, &p.key, 0, 0).await["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "table_invited")
        .cloned()
        .collect()
}

async fn a_reserved_seat_is_taken_only_by_its_players_key(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let host = register(&app, "host", "human").await;
    let guest = register(&app, "guest", "human").await;
    let other = register(&app, "other", "bot").await;
    let created = create_table_as(
        &app,
        Some(&host.key),
        four_open(json!({"seats": [
            {"kind": "remote", "player": host.id},
            {"kind": "remote", "player": guest.id},
            {"kind": "open"},
            {"kind": "open"},
        ]})),
    )
    .await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let tokens = created["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 1, "no token for the reserved seat: {created}");
    assert_eq!(tokens[0]["seat"], 0);
    let seat1 = &created["table"]["seats"][1];
    assert_eq!(seat1["kind"], "reserved");
    assert_eq!(seat1["player"]["id"], guest.id.as_str());
    assert_eq!(created["table"]["open_seats"], 2);
    let invited = invitations(&app, &guest).await;
    assert_eq!(invited.len(), 1, "{invited:?}");
    assert_eq!(invited[0]["table_id"], id.as_str());
    assert_eq!(invited[0]["seat"], 1);
    assert_eq!(invited[0]["from"]["id"], host.id.as_str());
    assert_eq!(invited[0]["variant"], "pairs");

    // Nobody else takes it: not anonymously, not with another key.
    let r = join(&app, &id, None, json!({"seat": 1})).await;
    refused(&r, StatusCode::CONFLICT, "seat_taken");
    let r = join(&app, &id, Some(&other.key), json!({"seat": 1})).await;
    refused(&r, StatusCode::CONFLICT, "seat_taken");
    let r = decline_seat(&app, &id, Some(&other.key)).await;
    refused(&r, StatusCode::CONFLICT, "seat_taken");
    let r = decline_seat(&app, &id, None).await;
    refused(&r, StatusCode::UNAUTHORIZED, "unauthorized");
    let r = join(&app, &id, Some(&other.key), json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.json["token"]["seat"], 2,
        "the first open seat, not the reserved one"
    );
    assert!(
        player_events(&app, &guest.key, 0, 0).await["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["type"] == "table_invited"),
        "an invited player hears nothing of the table before it sits down"
    );

    // Its player's key takes it (without naming the seat).
    let r = join(&app, &id, Some(&guest.key), json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["token"]["seat"], 1);
    assert_eq!(r.json["table"]["seats"][1]["kind"], "remote");
    assert_eq!(r.json["started"], false);
    let r = join(&app, &id, None, json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["started"], true);
    let view = app
        .get(&format!("/v1/matches/{id}"), Some(&guest.key))
        .await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    assert_eq!(view.json["you"], 1);

    // Declined, a reserved seat is open to anyone; a private table's
    // reserved player joins it by its id.
    let created = create_table_as(
        &app,
        Some(&host.key),
        four_open(json!({"visibility": "private", "seats": [
            {"kind": "reserved", "player": guest.id},
            {"kind": "reserved", "player": other.id},
            {"kind": "open"},
            {"kind": "open"},
        ]})),
    )
    .await;
    assert!(created["tokens"].as_array().unwrap().is_empty());
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let r = decline_seat(&app, &id, Some(&guest.key)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["seats"][0]["kind"], "open");
    assert!(r.json["seats"][0]["player"].is_null());
    let r = decline_seat(&app, &id, Some(&guest.key)).await;
    refused(&r, StatusCode::CONFLICT, "seat_taken");
    let r = join(&app, &id, Some(&other.key), json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["token"]["seat"], 1);
    let r = join(&app, &id, None, json!({})).await;
    refused(&r, StatusCode::FORBIDDEN, "forbidden");
    // Reserving a seat for oneself, or for nobody, is refused.
    for seat in [
        json!({"kind": "reserved", "player": host.id}),
        json!({"kind": "reserved"}),
    ] {
        let body = four_open(
            json!({"seats": [seat, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]}),
        );
        let r = app.post("/v1/tables", Some(&host.key), body).await;
        refused(&r, StatusCode::BAD_REQUEST, "invalid_request");
    }
}

both_stores!(
    an_anonymous_request_seats_no_stranger,
    a_reserved_seat_is_taken_only_by_its_players_key,
);
