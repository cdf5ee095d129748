//! Challenges: the whole flow in the pairs game (a partner and two
//! opponents) and in an individual variant with a house bot, decline,
//! cancel and expiry with their events, every refusal, and the last two
//! acceptances racing on two instances sharing one Redis.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use std::sync::Arc;

use botifarra::lobby::challenges::{
    ChallengeRecord, ChallengeRole, ChallengeSeat, ChallengeStatus,
};
use botifarra::lobby::records::{PlayerKind, SeatPlayer};
use botifarra::lobby::store::{Doc, LobbyStore};
use botifarra::service::{Limits, OnTimeout, Service};

use crate::app::{Backend, Reply, TestApp, spawn_lobby_app, spawn_service, store_for, unlimited};
use crate::backends::all_stores;
use crate::lobby_client::{PlayerKey, play_to_end, player_events, register};

async fn challenge(app: &TestApp, key: &str, body: Value) -> Reply {
    app.post("/v1/challenges", Some(key), body).await
}

async fn answer(app: &TestApp, id: &str, key: &str, what: &str) -> Reply {
    app.send(
        Method::POST,
        &format!("/v1/challenges/{id}/{what}"),
        Some(key),
        None,
        &[],
    )
    .await
}

async fn cancel(app: &TestApp, id: &str, key: &str) -> Reply {
    app.send(
        Method::DELETE,
        &format!("/v1/challenges/{id}"),
        Some(key),
        None,
        &[],
    )
    .await
}

/// The events of `key`'s stream of `kind` about challenge or match `id`.
async fn events_about(app: &TestApp, key: &str, kind: &str, id: &str) -> Vec<Value> {
    player_events(app, key, 0, 0).await["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == kind && (e["challenge_id"] == id || e["match_id"] == id))
        .cloned()
        .collect()
}

async fn players(app: &TestApp, n: usize) -> Vec<PlayerKey> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(register(app, &format!("player{i}"), "bot").await);
    }
    out
}

fn made(r: &Reply) -> String {
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["status"], "pending");
    r.json["challenge_id"].as_str().unwrap().to_string()
}

async fn a_pairs_challenge_is_accepted_by_all_three_and_played(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = players(&app, 4).await;
    let (me, partner, o1, o2) = (&p[0], &p[1], &p[2], &p[3]);
    let r = challenge(
        &app,
        &me.key,
        json!({
            "variant": "pairs",
            "partner": partner.id,
            "opponents": [o1.id, o2.id],
            "rules": {"variant": "pairs", "max_hands": 1},
        }),
    )
    .await;
    let id = made(&r);
    let seats = &r.json["seats"];
    let roles: Vec<_> = (0..4)
        .map(|s| (seats[s]["role"].clone(), seats[s]["player"]["id"].clone()))
        .collect();
    assert_eq!(
        roles,
        [
            (json!("challenger"), json!(me.id)),
            (json!("opponent"), json!(o1.id)),
            (json!("partner"), json!(partner.id)),
            (json!("opponent"), json!(o2.id)),
        ],
        "the partner faces the challenger; the opponents face each other"
    );
    assert_eq!(seats[0]["team"], seats[2]["team"]);
    assert_eq!(seats[1]["team"], seats[3]["team"]);
    assert_eq!(r.json["waiting_for"].as_array().unwrap().len(), 3);
    assert_eq!(r.json["match_id"], Value::Null);
    assert!(r.json["expires_at"].is_string());

    // Each invited player heard of it, with its seat; the challenger did not.
    for (who, seat) in [(partner, 2), (o1, 1), (o2, 3)] {
        let got = events_about(&app, &who.key, "challenge_received", &id).await;
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0]["from"]["id"], me.id.as_str());
        assert_eq!(got[0]["seat"], seat);
        assert_eq!(got[0]["variant"], "pairs");
        assert_eq!(got[0]["rated"], false);
    }
    assert!(
        events_about(&app, &me.key, "challenge_received", &id)
            .await
            .is_empty()
    );
    let list = app.get("/v1/challenges", Some(&o1.key)).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert_eq!(list.json["incoming"][0]["challenge_id"], id.as_str());
    assert_eq!(list.json["outgoing"], json!([]));
    let list = app.get("/v1/challenges", Some(&me.key)).await;
    assert_eq!(list.json["outgoing"][0]["challenge_id"], id.as_str());

    // Nothing starts before the last acceptance.
    for (i, who) in [partner, o1].into_iter().enumerate() {
        let r = answer(&app, &id, &who.key, "accept").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.json["status"], "pending");
        assert_eq!(r.json["waiting_for"].as_array().unwrap().len(), 1 - i + 1);
    }
    assert_eq!(
        app.get(&format!("/v1/matches/{id}"), None).await.status,
        StatusCode::NOT_FOUND
    );
    let heard = events_about(&app, &me.key, "challenge_accepted", &id).await;
    assert_eq!(heard.len(), 2, "the challenger heard both acceptances");
    assert_eq!(heard[1]["player"], o1.id.as_str());
    assert_eq!(heard[1]["waiting_for"], 1);

    let r = answer(&app, &id, &o2.key, "accept").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "started");
    assert_eq!(r.json["match_id"], id.as_str());
    assert_eq!(r.json["waiting_for"], json!([]));
    let again = answer(&app, &id, &o2.key, "accept").await;
    assert_eq!(again.status, StatusCode::OK, "accepting again is harmless");
    assert_eq!(again.json["status"], "started");
    let late = answer(&app, &id, &o1.key, "decline").await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert_eq!(late.json["code"], "challenge_closed");
    for who in &p {
        let list = app.get("/v1/challenges", Some(&who.key)).await;
        assert_eq!(
            list.json,
            json!({"incoming": [], "outgoing": [], "next_incoming": null, "next_outgoing": null})
        );
        let started = events_about(&app, &who.key, "match_started", &id).await;
        assert_eq!(started.len(), 1, "{started:?}");
    }

    // The match: every seat the player's, played with the players' keys.
    let view = app.get(&format!("/v1/matches/{id}"), Some(&o1.key)).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    assert_eq!(view.json["you"], 1);
    for (seat, who) in [(0, me), (1, o1), (2, partner), (3, o2)] {
        assert_eq!(view.json["seats"][seat]["player"]["id"], who.id.as_str());
    }
    let tasks: Vec<_> = p
        .iter()
        .map(|who| {
            let (base, id, key) = (app.base.clone(), id.clone(), who.key.clone());
            tokio::spawn(async move {
                play_to_end(&TestApp::external(base), &id, &key).await;
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let over = events_about(&app, &me.key, "match_over", &id).await;
    assert_eq!(over.len(), 1);
}

async fn an_individual_rated_challenge_seats_a_house_bot(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = players(&app, 3).await;
    let r = challenge(
        &app,
        &p[0].key,
        json!({"variant": "abarrotada", "rated": true, "opponents": [p[1].id, p[2].id], "fill_with": "random"}),
    )
    .await;
    let id = made(&r);
    assert_eq!(r.json["rated"], true);
    assert_eq!(r.json["seats"][3]["role"], "bot");
    assert_eq!(r.json["seats"][3]["bot"], "random");
    assert_eq!(r.json["seats"][3]["accepted"], true);
    assert_eq!(r.json["rules"]["target"], 101, "the standard rules");
    for who in &p[1..] {
        assert_eq!(
            answer(&app, &id, &who.key, "accept").await.status,
            StatusCode::OK
        );
    }
    let got = app
        .get(&format!("/v1/challenges/{id}"), Some(&p[2].key))
        .await;
    assert_eq!(got.json["status"], "started", "{}", got.text);
    let view = app.get(&format!("/v1/matches/{id}"), Some(&p[0].key)).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    assert_eq!(view.json["seats"][3]["kind"], "bot");
    assert_eq!(view.json["seats"][3]["player"]["id"], "house-random");
    assert_eq!(view.json["rules"]["variant"], "abarrotada");

    // Playable with the keys: whoever is to act posts a legal action.
    for _ in 0..8 {
        let view = app.get(&format!("/v1/matches/{id}"), None).await;
        let Some(turn) = view.json["turn"].as_u64() else {
            break;
        };
        let key = &p[turn as usize].key;
        let mine = app.get(&format!("/v1/matches/{id}"), Some(key)).await;
        assert_eq!(mine.json["you"], turn);
        let action = mine.json["legal_actions"][0].clone();
        let r = app
            .post(&format!("/v1/matches/{id}/actions"), Some(key), action)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
}

async fn decline_cancel_and_expiry_close_a_challenge_and_are_heard(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = players(&app, 3).await;
    let (me, b, c) = (&p[0], &p[1], &p[2]);
    let body = json!({"variant": "abarrotada3", "opponents": [b.id, c.id]});

    // Declined by one: closed for everyone; the others hear who declined.
    let id = made(&challenge(&app, &me.key, body.clone()).await);
    assert_eq!(
        answer(&app, &id, &c.key, "accept").await.status,
        StatusCode::OK
    );
    let r = answer(&app, &id, &b.key, "decline").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "declined");
    assert_eq!(r.json["declined_by"], b.id.as_str());
    for who in [me, c] {
        let heard = events_about(&app, &who.key, "challenge_declined", &id).await;
        assert_eq!(heard.len(), 1);
        assert_eq!(heard[0]["player"], b.id.as_str());
    }
    assert!(
        events_about(&app, &b.key, "challenge_declined", &id)
            .await
            .is_empty()
    );
    for (who, what) in [(c, "accept"), (b, "accept"), (c, "decline")] {
        let r = answer(&app, &id, &who.key, what).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
        assert_eq!(r.json["code"], "challenge_closed");
        assert_eq!(r.content_type, "application/problem+json");
    }
    assert_eq!(
        cancel(&app, &id, &me.key).await.json["code"],
        "challenge_closed"
    );

    // Cancelled by the challenger: the invited players hear of it.
    let id = made(&challenge(&app, &me.key, body.clone()).await);
    let r = cancel(&app, &id, &me.key).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "cancelled");
    for who in [b, c] {
        assert_eq!(
            events_about(&app, &who.key, "challenge_cancelled", &id)
                .await
                .len(),
            1
        );
        let r = answer(&app, &id, &who.key, "accept").await;
        assert_eq!(r.status, StatusCode::CONFLICT);
        assert_eq!(r.json["code"], "challenge_closed");
    }
    assert_eq!(
        app.get("/v1/challenges", Some(&b.key)).await.json["incoming"],
        json!([])
    );

    // Unanswered past its expiry: every player hears it once, unasked.
    let mut short = body.clone();
    short["expires_in_s"] = json!(1);
    let id = made(&challenge(&app, &me.key, short).await);
    let mut heard = Vec::new();
    for _ in 0..50 {
        heard = events_about(&app, &c.key, "challenge_expired", &id).await;
        if !heard.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(heard.len(), 1, "the sweeper announced the expiry");
    let r = answer(&app, &id, &b.key, "accept").await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "challenge_expired");
    assert_eq!(
        cancel(&app, &id, &me.key).await.json["code"],
        "challenge_expired"
    );
    let got = app.get(&format!("/v1/challenges/{id}"), Some(&b.key)).await;
    assert_eq!(got.json["status"], "expired");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for who in [me, b, c] {
        assert_eq!(
            events_about(&app, &who.key, "challenge_expired", &id)
                .await
                .len(),
            1,
            "announced exactly once"
        );
    }
    assert_eq!(
        app.get(&format!("/v1/matches/{id}"), None).await.status,
        StatusCode::NOT_FOUND
    );
}

async fn every_refusal_is_a_problem_and_changes_nothing(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = players(&app, 5).await;
    let (me, b, c, d, outsider) = (&p[0], &p[1], &p[2], &p[3], &p[4]);
    let unknown = "p000000000000000000000000";
    let body = json!({"variant": "abarrotada3", "opponents": [b.id, c.id]});
    for cred in [None, Some("bt_notakey")] {
        let r = app.post("/v1/challenges", cred, body.clone()).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    }
    let refused = [
        (
            json!({"variant": "abarrotada3", "opponents": [me.id, b.id]}),
            400,
            "itself",
        ),
        (
            json!({"variant": "pairs", "partner": me.id, "opponents": [b.id, c.id]}),
            400,
            "own partner",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": [b.id, b.id]}),
            400,
            "twice",
        ),
        (
            json!({"variant": "pairs", "partner": b.id, "opponents": [b.id, c.id]}),
            400,
            "twice",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": [b.id, unknown]}),
            404,
            "unknown",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": [b.id, "house-nobody"]}),
            400,
            "unknown bot",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": [b.id, c.id, d.id]}),
            400,
            "3 seats",
        ),
        (
            json!({"variant": "pairs", "opponents": [b.id, c.id, d.id]}),
            400,
            "pairs: 3",
        ),
        (
            json!({"variant": "abarrotada", "partner": d.id, "opponents": [b.id]}),
            400,
            "partner alone",
        ),
        (
            json!({"variant": "pairs", "opponents": [b.id, c.id]}),
            400,
            "seat 2 empty",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": []}),
            400,
            "nobody",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": [b.id], "fill_with": "nobot"}),
            400,
            "bot",
        ),
        (
            json!({"variant": "abarrotada3", "rated": true, "opponents": [b.id, c.id], "rules": {"variant": "abarrotada3", "max_hands": 1}}),
            400,
            "rated rules",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": [b.id, c.id], "rules": {"variant": "pairs"}}),
            400,
            "variant",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": [b.id, c.id], "expires_in_s": 0}),
            400,
            "expiry",
        ),
        (
            json!({"variant": "abarrotada3", "opponents": [b.id, c.id], "seats": []}),
            400,
            "unknown field",
        ),
    ];
    for (body, status, why) in refused {
        let r = challenge(&app, &me.key, body).await;
        assert_eq!(r.status.as_u16(), status, "{why}: {}", r.text);
        assert_eq!(r.content_type, "application/problem+json", "{why}");
        let code = if status == 404 {
            "player_not_found"
        } else {
            "invalid_request"
        };
        assert_eq!(r.json["code"], code, "{why}");
    }
    let rated_rules = challenge(
        &app,
        &me.key,
        json!({"variant": "abarrotada3", "rated": true, "opponents": [b.id, c.id], "rules": {"variant": "abarrotada3", "max_hands": 1}}),
    )
    .await;
    assert!(
        rated_rules.json["detail"]
            .as_str()
            .unwrap()
            .contains("standard rules"),
        "{}",
        rated_rules.text
    );
    for who in [me, b, c] {
        assert_eq!(
            player_events(&app, &who.key, 0, 0).await["last_seq"],
            0,
            "a refusal tells nobody"
        );
        let list = app.get("/v1/challenges", Some(&who.key)).await;
        assert_eq!(
            list.json,
            json!({"incoming": [], "outgoing": [], "next_incoming": null, "next_outgoing": null})
        );
    }

    // Answers from the wrong players.
    let id = made(&challenge(&app, &me.key, body).await);
    for (key, what) in [
        (&outsider.key, "accept"),
        (&outsider.key, "decline"),
        (&me.key, "accept"),
        (&me.key, "decline"),
    ] {
        let r = answer(&app, &id, key, what).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{what}: {}", r.text);
        assert_eq!(r.json["code"], "forbidden");
    }
    for key in [&outsider.key, &b.key] {
        let r = cancel(&app, &id, key).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    }
    let r = app
        .get(&format!("/v1/challenges/{id}"), Some(&outsider.key))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = app.get(&format!("/v1/challenges/{id}"), None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    for missing in [
        "000000000000000000000000",
        "nothex",
        "ABCDEF000000000000000000",
    ] {
        let r = answer(&app, missing, &b.key, "accept").await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
        assert_eq!(r.json["code"], "challenge_not_found");
    }
    let got = app.get(&format!("/v1/challenges/{id}"), Some(&b.key)).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.json["status"], "pending");
    assert_eq!(
        got.json["waiting_for"],
        json!([b.id, c.id]),
        "nothing changed"
    );
}

/// One app on memory; two instances sharing the test Redis.
async fn instances(backend: Backend) -> Vec<TestApp> {
    match backend {
        Backend::Memory => vec![spawn_lobby_app(backend).await],
        _ => vec![
            spawn_lobby_app(backend).await,
            spawn_lobby_app(backend).await,
        ],
    }
}

async fn racing_last_acceptances_start_the_match_once(backend: Backend) {
    let apps = instances(backend).await;
    let (a, b) = (&apps[0], &apps[apps.len() - 1]);
    let p = players(a, 4).await;
    for round in 0..8 {
        let id = made(
            &challenge(
                a,
                &p[0].key,
                json!({"variant": "pairs", "partner": p[1].id, "opponents": [p[2].id, p[3].id]}),
            )
            .await,
        );
        assert_eq!(
            answer(b, &id, &p[1].key, "accept").await.status,
            StatusCode::OK
        );
        // The two last acceptances (and one repeated) on two instances at once.
        let racers = [(a, 2), (b, 3), (a, 3), (b, 2)];
        let tasks: Vec<_> = racers
            .iter()
            .map(|(app, who)| {
                let (base, id, key) = (app.base.clone(), id.clone(), p[*who].key.clone());
                tokio::spawn(
                    async move { answer(&TestApp::external(base), &id, &key, "accept").await },
                )
            })
            .collect();
        for t in tasks {
            let r = t.await.unwrap();
            assert_eq!(r.status, StatusCode::OK, "round {round}: {}", r.text);
            assert!(
                ["pending", "started"].contains(&r.json["status"].as_str().unwrap()),
                "{}",
                r.text
            );
        }
        for app in &apps {
            let got = app
                .get(&format!("/v1/challenges/{id}"), Some(&p[0].key))
                .await;
            assert_eq!(got.json["status"], "started", "{}", got.text);
            let view = app.get(&format!("/v1/matches/{id}"), Some(&p[3].key)).await;
            assert_eq!(view.status, StatusCode::OK, "{}", view.text);
            assert_eq!(view.json["you"], 3);
        }
        for who in &p {
            let started = events_about(a, &who.key, "match_started", &id).await;
            assert_eq!(started.len(), 1, "round {round}: one start, {started:?}");
        }
        let accepted = events_about(a, &p[0].key, "challenge_accepted", &id).await;
        assert_eq!(accepted.len(), 3, "each acceptance heard once");
    }
}

/// A challenge whose last acceptance was written but whose match was not
/// created (its starter stopped half-way) reads as `starting` (a read
/// starts nothing), and is started once by its players' next answers,
/// racing.
async fn a_fully_accepted_challenge_not_started_is_started_once_by_its_next_answers(
    backend: Backend,
) {
    let lobby: Arc<dyn LobbyStore> = crate::app::lobby_store_for(backend).await;
    let svc = botifarra::lobby::Lobby::new(
        Service::new(store_for(backend, None).await, Limits::default()).unwrap(),
        Arc::clone(&lobby),
    );
    let app = spawn_service(svc, unlimited());
    let p = players(&app, 3).await;
    let seat = |role, who: &PlayerKey| ChallengeSeat {
        role,
        player: Some(SeatPlayer {
            id: who.id.clone(),
            name: "x".into(),
            kind: PlayerKind::Bot,
        }),
        bot: "random".into(),
        accepted: true,
    };
    let id = hex::encode(botifarra::service::random_bytes::<12>().unwrap());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let rec = ChallengeRecord {
        id: id.clone(),
        rules: botifarra::rating::rated_rules(botifarra::rules::Variant::Abarrotada3),
        rated: true,
        seed: "07".repeat(32),
        auto_deal: true,
        move_timeout_ms: None,
        on_timeout: OnTimeout::Bot,
        seats: vec![
            seat(ChallengeRole::Challenger, &p[0]),
            seat(ChallengeRole::Opponent, &p[1]),
            seat(ChallengeRole::Opponent, &p[2]),
        ],
        status: ChallengeStatus::Starting,
        declined_by: None,
        created_ms: now,
        expires_ms: now + 60_000,
        rematch_of: None,
    };
    let state = serde_json::to_string(&rec).unwrap();
    assert!(
        lobby
            .insert(Doc::Challenge, &id, &state, Some(Duration::from_secs(600)))
            .await
            .unwrap()
    );
    assert_eq!(
        app.get(&format!("/v1/matches/{id}"), None).await.status,
        StatusCode::NOT_FOUND
    );
    // A read shows it as it is, and starts nothing.
    let r = app
        .get(&format!("/v1/challenges/{id}"), Some(&p[0].key))
        .await;
    assert_eq!(r.json["status"], "starting", "{}", r.text);
    assert_eq!(
        app.get(&format!("/v1/matches/{id}"), None).await.status,
        StatusCode::NOT_FOUND
    );
    // Its players' answers, racing, start it once.
    let answers: Vec<_> = p[1..]
        .iter()
        .map(|who| {
            let (base, id, key) = (app.base.clone(), id.clone(), who.key.clone());
            tokio::spawn(async move {
                TestApp::external(base)
                    .post(
                        &format!("/v1/challenges/{id}/accept"),
                        Some(&key),
                        json!({}),
                    )
                    .await
            })
        })
        .collect();
    for r in answers {
        let r = r.await.unwrap();
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.json["status"], "started");
        assert_eq!(r.json["match_id"], id.as_str());
    }
    let view = app.get(&format!("/v1/matches/{id}"), Some(&p[2].key)).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    assert_eq!(view.json["you"], 2);
    for who in &p {
        let started = events_about(&app, &who.key, "match_started", &id).await;
        assert_eq!(started.len(), 1, "one start: {started:?}");
    }
    let stored = lobby.get(Doc::Challenge, &id).await.unwrap().unwrap();
    assert!(
        stored.state.contains("\"status\":\"started\""),
        "{}",
        stored.state
    );
}

async fn a_player_has_at_most_fifty_pending_challenges(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = players(&app, 2).await;
    let body = json!({"variant": "pairs", "opponents": [p[1].id], "fill_with": "random"});
    let mut ids = Vec::new();
    for _ in 0..50 {
        ids.push(made(&challenge(&app, &p[0].key, body.clone()).await));
    }
    let r = challenge(&app, &p[0].key, body.clone()).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "too_many_challenges");
    let list = app.get("/v1/challenges", Some(&p[1].key)).await;
    assert_eq!(list.json["incoming"].as_array().unwrap().len(), 50);
    assert_eq!(
        cancel(&app, &ids[0], &p[0].key).await.status,
        StatusCode::OK
    );
    made(&challenge(&app, &p[0].key, body).await);
}

all_stores!(
    a_player_has_at_most_fifty_pending_challenges,
    a_fully_accepted_challenge_not_started_is_started_once_by_its_next_answers,
    a_pairs_challenge_is_accepted_by_all_three_and_played,
    an_individual_rated_challenge_seats_a_house_bot,
    decline_cancel_and_expiry_close_a_challenge_and_are_heard,
    every_refusal_is_a_problem_and_changes_nothing,
    racing_last_acceptances_start_the_match_once,
);
