//! House bots at a chosen level: challenged by their player id
//! (`house-<level>`), seated at that level, started at once and rated
//! against the level's anchor; and the queue's fill at the level a ticket
//! asks for.

use reqwest::StatusCode;
use serde_json::{Value, json};

use botifarra::rating::{DEFAULT_TAU, Game, Rating, house_anchor, side_opponent};

use crate::app::{Backend, spawn_lobby_app};
use crate::backends::both_stores;
use crate::lobby_client::{play_to_end, player_events, register};

async fn a_house_bot_is_challenged_at_a_level_and_rated_against_its_anchor(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let me = register(&app, "challenger", "bot").await;
    let r = app
        .post(
            "/v1/challenges",
            Some(&me.key),
            json!({"variant": "pairs", "rated": true, "partner": "house-random",
                   "opponents": ["house-easy", "house-easy"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // House bots accept at once: the match has started.
    assert_eq!(r.json["status"], "started", "{}", r.text);
    let id = r.json["challenge_id"].as_str().unwrap().to_string();
    assert_eq!(r.json["match_id"], id.as_str());
    assert_eq!(r.json["waiting_for"], json!([]));
    let seats = &r.json["seats"];
    for (seat, bot) in [(1, "easy"), (2, "random"), (3, "easy")] {
        assert_eq!(seats[seat]["role"], "bot", "{seats}");
        assert_eq!(seats[seat]["bot"], bot, "{seats}");
        assert_eq!(seats[seat]["accepted"], true);
    }
    let view = app.get(&format!("/v1/matches/{id}"), Some(&me.key)).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    let mine = app.get("/v1/players/me/matches", Some(&me.key)).await;
    assert_eq!(mine.json["matches"][0]["match_id"], id.as_str());
    assert_eq!(mine.json["matches"][0]["rated"], true, "{}", mine.text);
    for (seat, bot) in [(1, "easy"), (2, "random"), (3, "easy")] {
        let s = &view.json["seats"][seat];
        assert_eq!(s["kind"], "bot");
        assert_eq!(s["bot"], bot);
        assert_eq!(s["player"]["id"], format!("house-{bot}"));
    }
    let started = player_events(&app, &me.key, 0, 0).await;
    assert!(
        started["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "match_started" && e["match_id"] == id.as_str()),
        "{started}"
    );

    // Played out, the challenger is rated against the easy anchors.
    play_to_end(&app, &id, &me.key).await;
    let end = app.get(&format!("/v1/matches/{id}"), None).await.json;
    let score = if end["winner"] == 0 { 1.0 } else { 0.0 };
    let easy = house_anchor("easy").unwrap();
    let want = Rating::default().update(
        &[Game {
            opponent: side_opponent(&easy, &easy),
            score,
        }],
        DEFAULT_TAU,
    );
    let profile = app.get(&format!("/v1/players/{}", me.id), None).await.json;
    let pairs = profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["pool"] == "pairs")
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(pairs["games"], 1, "{profile}");
    let got = pairs["rating"].as_f64().unwrap();
    assert!((got - want.rating).abs() < 1e-6, "{got} vs {want:?}");

    // Its rematch needs nobody's answer: it starts at once, the player one
    // seat further on (old seat 1, a bot, now at seat 0).
    let r = app
        .post(
            &format!("/v1/matches/{id}/rematch"),
            Some(&me.key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["status"], "started", "{}", r.text);
    assert_eq!(r.json["rated"], true);
    assert_eq!(r.json["rematch_of"], id.as_str());
    assert_eq!(r.json["seats"][3]["player"]["id"], me.id.as_str());
    for (seat, bot) in [(0, "easy"), (1, "random"), (2, "easy")] {
        assert_eq!(r.json["seats"][seat]["bot"], bot, "{}", r.text);
    }
    let again = r.json["match_id"].as_str().unwrap();
    let view = app
        .get(&format!("/v1/matches/{again}"), Some(&me.key))
        .await;
    assert_eq!(view.json["you"], 3, "{}", view.text);
}

async fn a_challenge_names_a_player_and_a_house_bot_at_a_level(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let me = register(&app, "challenger", "bot").await;
    let other = register(&app, "other", "bot").await;
    let r = app
        .post(
            "/v1/challenges",
            Some(&me.key),
            json!({"variant": "abarrotada3", "opponents": [other.id, "house-medium"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["status"], "pending");
    assert_eq!(r.json["waiting_for"], json!([other.id]));
    assert_eq!(r.json["seats"][2]["role"], "bot");
    assert_eq!(r.json["seats"][2]["bot"], "medium");
    let id = r.json["challenge_id"].as_str().unwrap().to_string();
    let r = app
        .post(
            &format!("/v1/challenges/{id}/accept"),
            Some(&other.key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "started", "{}", r.text);
    let view = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(view.json["seats"][2]["player"]["id"], "house-medium");
    assert_eq!(view.json["seats"][2]["bot"], "medium");
    // An unknown level is refused and nothing is made.
    let r = app
        .post(
            "/v1/challenges",
            Some(&me.key),
            json!({"variant": "abarrotada3", "opponents": ["house-grandmaster"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(r.content_type, "application/problem+json");
    // The started challenge left the pending lists; the refused one was
    // never made.
    let list = app.get("/v1/challenges", Some(&me.key)).await;
    assert_eq!(list.json["outgoing"], json!([]), "{}", list.text);
}

async fn the_queue_fills_with_the_level_a_ticket_asks_for(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "lonely", "human").await;
    for (body, why) in [
        (
            json!({"variant": "abarrotada3", "fill_level": "easy"}),
            "a level without a fill time",
        ),
        (
            json!({"variant": "abarrotada3", "fill_with_house_bots_after_s": 1, "fill_level": "grandmaster"}),
            "an unknown level",
        ),
    ] {
        let r = app.post("/v1/queue", Some(&p.key), body).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{why}: {}", r.text);
        assert_eq!(r.json["code"], "invalid_request", "{why}");
    }
    let r = app
        .post(
            "/v1/queue",
            Some(&p.key),
            json!({"variant": "abarrotada3", "fill_with_house_bots_after_s": 1, "fill_level": "easy"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["ticket_id"].as_str().unwrap().to_string();
    let mut ticket = Value::Null;
    for _ in 0..20 {
        ticket = app
            .get(&format!("/v1/queue/{id}?wait_ms=5000"), Some(&p.key))
            .await
            .json;
        if ticket["status"] != "waiting" {
            break;
        }
    }
    assert_eq!(ticket["status"], "matched", "{ticket}");
    let m = ticket["match_id"].as_str().unwrap();
    let view = app.get(&format!("/v1/matches/{m}"), None).await;
    let bots: Vec<_> = view.json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "bot")
        .map(|s| s["bot"].as_str().unwrap())
        .collect();
    // A new player's 1500 is nearest `medium`: the level asked for wins.
    assert_eq!(bots, ["easy", "easy"]);

    // A party keeps the level for the pair's ticket, and checks it as a
    // ticket does.
    let partner = register(&app, "partner", "human").await;
    let body = |level: &str| {
        json!({"variant": "pairs", "partner": partner.id, "fill_with_house_bots_after_s": 1,
               "fill_level": level})
    };
    let r = app
        .post("/v1/queue/parties", Some(&p.key), body("grandmaster"))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    let r = app
        .post("/v1/queue/parties", Some(&p.key), body("hard"))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["fill_level"], "hard", "{}", r.text);
}

both_stores!(
    a_house_bot_is_challenged_at_a_level_and_rated_against_its_anchor,
    a_challenge_names_a_player_and_a_house_bot_at_a_level,
    the_queue_fills_with_the_level_a_ticket_asks_for,
);
