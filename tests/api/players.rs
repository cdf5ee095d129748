//! Players: registration, profiles, key rotation and revocation, seats
//! created for a player, and the player's event stream.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::app::{Backend, spawn_lobby_app};
use crate::backends::all_stores;
use crate::lobby_client::{play_to_end, player_events, register, secrets_in};

async fn a_player_registers_and_reads_its_profile(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let r = app
        .post(
            "/v1/players",
            None,
            json!({"name": "robobot", "kind": "bot"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let key = r.json["api_key"].as_str().unwrap().to_string();
    let id = r.json["player"]["id"].as_str().unwrap().to_string();
    assert!(
        key.starts_with("bp_"),
        "API keys are told apart from seat tokens"
    );
    assert_eq!(r.json["player"]["kind"], "bot");
    assert_eq!(r.json["player"]["matches_played"], 0);

    let me = app.get("/v1/players/me", Some(&key)).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    assert_eq!(me.json["id"], id.as_str());
    let public = app.get(&format!("/v1/players/{id}"), None).await;
    assert_eq!(public.json, me.json);
    assert!(secrets_in(&public.text).is_empty() && secrets_in(&me.text).is_empty());

    let unknown = app.get("/v1/players/p000000000000000000000000", None).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.json["code"], "player_not_found");
    for bad in [
        json!({"name": "x", "kind": "alien"}),
        json!({"name": "", "kind": "bot"}),
        json!({"name": "a\u{202E}b", "kind": "human"}),
        json!({"kind": "human"}),
    ] {
        let r = app.post("/v1/players", None, bad).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
        assert_eq!(r.content_type, "application/problem+json");
    }
}

async fn a_rotated_or_revoked_key_gets_401(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "rotor", "human").await;
    let r = app
        .send(Method::POST, "/v1/players/me/key", Some(&p.key), None, &[])
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let fresh = r.json["api_key"].as_str().unwrap().to_string();
    assert_ne!(fresh, p.key);
    let old = app.get("/v1/players/me", Some(&p.key)).await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    assert_eq!(old.json["code"], "unauthorized");
    assert_eq!(
        app.get("/v1/players/me", Some(&fresh)).await.status,
        StatusCode::OK
    );

    let r = app
        .send(
            Method::DELETE,
            "/v1/players/me/key",
            Some(&fresh),
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    for key in [&p.key, &fresh] {
        let r = app.get("/v1/players/me", Some(key)).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
        let r = app.get("/v1/players/me/events", Some(key)).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    // A seat token or a made-up key is not a player key.
    let forged = format!("bp_{}_{}", p.id, "0".repeat(64));
    assert_eq!(
        app.get("/v1/players/me", Some(&forged)).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get("/v1/players/me", Some("bt_00")).await.status,
        StatusCode::UNAUTHORIZED
    );
}

async fn a_players_key_plays_its_seat_and_its_stream_tells_it_when(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "streamer", "bot").await;
    let other = register(&app, "other", "bot").await;
    let r = app
        .post(
            "/v1/matches",
            Some(&p.key),
            json!({
                "rules": {"max_hands": 1},
                "auto_deal": true,
                "seats": [{"player": p.id}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
            }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["match_id"].as_str().unwrap().to_string();
    let seat0 = &r.json["view"]["seats"][0];
    assert_eq!(seat0["player"]["id"], p.id.as_str());
    assert_eq!(seat0["player"]["name"], "streamer");
    assert_eq!(seat0["name"], "streamer");
    // House bots are players too, without a key or a stream.
    let house = &r.json["view"]["seats"][1]["player"];
    assert_eq!(house["id"], "house-random");
    assert_eq!(house["kind"], "bot");
    let profile = app.get("/v1/players/house-random", None).await;
    assert_eq!(profile.status, StatusCode::OK, "{}", profile.text);
    assert_eq!(profile.json["kind"], "bot");
    assert_eq!(profile.json["name"], house["name"]);
    assert_eq!(
        app.get("/v1/players/house-nobody", None).await.status,
        StatusCode::NOT_FOUND
    );

    let events = player_events(&app, &p.key, 0, 5000).await;
    let kinds: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds[0], "match_started");
    assert_eq!(events["events"][0]["match_id"], id.as_str());
    assert_eq!(events["events"][0]["seat"], 0);
    assert!(kinds.contains(&"your_turn"), "{kinds:?}");

    // The key acts for the seat; another player's key does not.
    let view = app.get(&format!("/v1/matches/{id}"), Some(&p.key)).await;
    assert_eq!(view.json["you"], 0);
    let r = app
        .get(&format!("/v1/matches/{id}/legal-moves"), Some(&other.key))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    play_to_end(&app, &id, &p.key).await;

    let last = events["last_seq"].as_u64().unwrap();
    let mut seen_over = false;
    let mut after = last;
    for _ in 0..100 {
        let page = player_events(&app, &p.key, after, 1000).await;
        for e in page["events"].as_array().unwrap() {
            seen_over |= e["type"] == "match_over" && e["match_id"] == id.as_str();
        }
        after = page["last_seq"].as_u64().unwrap();
        if seen_over {
            break;
        }
    }
    assert!(seen_over, "the stream announces the end of the match");
    let me = app.get("/v1/players/me", Some(&p.key)).await;
    assert_eq!(me.json["matches_played"], 1);

    // One player twice, or at a bot seat, is refused; a seat for any
    // player but the key's own (an unknown one too) needs its consent.
    for seats in [
        json!([{"player": p.id}, {"player": p.id}, {}, {}]),
        json!([{"kind": "bot", "player": p.id}, {}, {}, {}]),
    ] {
        let r = app
            .post("/v1/matches", Some(&p.key), json!({"seats": seats}))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    }
    let unknown = json!({"seats": [{"player": "p000000000000000000000000"}, {}, {}, {}]});
    let r = app.post("/v1/matches", Some(&p.key), unknown).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    assert_eq!(r.json["code"], "consent_required");
}

async fn the_player_stream_is_served_as_server_sent_events(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "sse", "bot").await;
    let r = app
        .post(
            "/v1/matches",
            Some(&p.key),
            json!({"auto_deal": true, "seats": [{"player": p.id}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED);
    let resp = app
        .client
        .get(format!("{}/v1/players/me/events", app.base))
        .bearer_auth(&p.key)
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let mut body = resp.bytes_stream();
    let mut text = String::new();
    while !text.contains("event: your_turn") {
        let chunk = tokio::time::timeout(Duration::from_secs(20), body.next())
            .await
            .expect("an event arrives")
            .unwrap()
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    // A fresh connect opens with the ongoing matches (unnumbered), then
    // the kept events from the first.
    let (opening, rest) = text.split_once("\n\n").unwrap();
    assert!(opening.starts_with("event: matches\ndata: {"), "{text}");
    assert!(rest.starts_with("id: 1\nevent: match_started\n"), "{text}");
    // Resumed after event 1: the next event is number 2.
    let resp = app
        .client
        .get(format!("{}/v1/players/me/events", app.base))
        .bearer_auth(&p.key)
        .header("accept", "text/event-stream")
        .header("last-event-id", "1")
        .send()
        .await
        .unwrap();
    let chunk = resp.bytes_stream().next().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&chunk).starts_with("id: 2\n"));
}

all_stores!(
    a_player_registers_and_reads_its_profile,
    a_rotated_or_revoked_key_gets_401,
    a_players_key_plays_its_seat_and_its_stream_tells_it_when,
    the_player_stream_is_served_as_server_sent_events,
);
