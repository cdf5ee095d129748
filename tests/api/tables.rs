//! Tables with open seats: joining (as a player, anonymously, as a pair,
//! opposite a partner), leaving, expiry, the lobby and invite codes.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, spawn_lobby_app, spawn_lobby_with, unlimited};
use crate::backends::all_stores;
use crate::lobby_client::{
    create_table, create_table_as, four_open, join, play_to_end, player_events, register,
    secrets_in,
};

fn event_types(page: &Value) -> Vec<String> {
    page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect()
}

async fn the_last_join_starts_the_match_with_every_seat_known(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let host = register(&app, "host", "human").await;
    let bot = register(&app, "joiner", "bot").await;
    let created = create_table_as(
        &app,
        Some(&host.key),
        json!({
            "rules": {"max_hands": 1},
            "auto_deal": true,
            "seats": [{"kind": "remote", "player": host.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}],
        }),
    )
    .await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    assert_eq!(created["table"]["status"], "open");
    assert_eq!(created["table"]["open_seats"], 3);
    assert!(
        created["invite_code"].is_null(),
        "public tables have no code"
    );
    let host_token = created["tokens"][0]["token"].as_str().unwrap().to_string();
    assert_eq!(
        app.get(&format!("/v1/matches/{id}"), None).await.status,
        StatusCode::NOT_FOUND,
        "no match before the seats are filled"
    );

    // The bot player asks for the seat opposite the host: seat 2.
    let r = join(&app, &id, Some(&bot.key), json!({"opposite": host.id})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["token"]["seat"], 2);
    assert_eq!(r.json["started"], false);
    assert_eq!(r.json["table"]["seats"][2]["player"]["id"], bot.id.as_str());
    let again = join(&app, &id, Some(&bot.key), json!({})).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "one seat per player");
    assert_eq!(again.json["code"], "seat_taken");
    let wrong = join(&app, &id, Some(&host_token), json!({})).await;
    assert_eq!(
        wrong.status,
        StatusCode::UNAUTHORIZED,
        "a seat token does not join"
    );

    // A pair of anonymous people takes the last two (facing) seats.
    let r = join(
        &app,
        &id,
        None,
        json!({"name": "Anna", "partner": {"name": "Jordi"}}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["started"], true);
    assert_eq!(r.json["token"]["seat"], 1);
    assert_eq!(r.json["partner"]["seat"], 3);
    assert_eq!(r.json["table"]["match_id"], id.as_str());
    let anna = r.json["token"]["token"].as_str().unwrap().to_string();
    let jordi = r.json["partner"]["token"].as_str().unwrap().to_string();

    let view = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    let seats = &view.json["seats"];
    assert_eq!(seats[0]["player"]["id"], host.id.as_str());
    assert_eq!(seats[2]["player"]["kind"], "bot");
    assert_eq!(seats[1]["name"], "Anna");
    assert!(seats[1]["player"].is_null());
    assert_eq!(
        app.get(&format!("/v1/tables/{id}"), None).await.json["status"],
        "started"
    );
    let full = join(&app, &id, None, json!({})).await;
    assert_eq!(full.status, StatusCode::CONFLICT);

    // The host heard of the seats and of the start.
    let page = player_events(&app, &host.key, 0, 0).await;
    let kinds = event_types(&page);
    assert_eq!(
        &kinds[..4],
        ["seat_filled", "seat_filled", "seat_filled", "match_started"],
        "{kinds:?}"
    );

    // Everyone plays: the host and the bot with their keys, the pair with tokens.
    let players = [host.key.clone(), anna, bot.key.clone(), jordi];
    let tasks: Vec<_> = players
        .into_iter()
        .map(|cred| {
            let (base, id) = (app.base.clone(), id.clone());
            tokio::spawn(async move {
                let app = crate::app::TestApp::external(base);
                play_to_end(&app, &id, &cred).await;
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let me = app.get("/v1/players/me", Some(&bot.key)).await;
    assert_eq!(me.json["matches_played"], 1);
}

async fn leaving_before_the_start_frees_the_seat(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "leaver", "human").await;
    let created = create_table(&app, four_open(json!({}))).await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let r = join(&app, &id, None, json!({"seat": 3, "name": "x"})).await;
    let token = r.json["token"]["token"].as_str().unwrap().to_string();
    let r = join(&app, &id, Some(&p.key), json!({})).await;
    assert_eq!(r.json["token"]["seat"], 0);

    let left = app
        .post(&format!("/v1/tables/{id}/leave"), Some(&token), json!({}))
        .await;
    assert_eq!(left.status, StatusCode::OK, "{}", left.text);
    assert_eq!(left.json["seats"][3]["kind"], "open");
    assert_eq!(left.json["open_seats"], 3);
    let twice = app
        .post(&format!("/v1/tables/{id}/leave"), Some(&token), json!({}))
        .await;
    assert_eq!(
        twice.status,
        StatusCode::UNAUTHORIZED,
        "the token holds no seat any more"
    );
    let left = app
        .post(&format!("/v1/tables/{id}/leave"), Some(&p.key), json!({}))
        .await;
    assert_eq!(left.status, StatusCode::OK);
    assert_eq!(left.json["open_seats"], 4);
    let none = app
        .post(&format!("/v1/tables/{id}/leave"), None, json!({}))
        .await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);

    // Seat 3 can be taken again; once the match starts, nobody leaves.
    let r = join(&app, &id, None, json!({"seat": 3})).await;
    assert_eq!(r.status, StatusCode::OK);
    let token = r.json["token"]["token"].as_str().unwrap().to_string();
    for _ in 0..3 {
        assert_eq!(
            join(&app, &id, None, json!({})).await.status,
            StatusCode::OK
        );
    }
    let late = app
        .post(&format!("/v1/tables/{id}/leave"), Some(&token), json!({}))
        .await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);
    assert_eq!(late.json["code"], "table_started");
    let taken = join(&app, &id, None, json!({"seat": 9})).await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
}

async fn an_unfilled_table_expires(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let created = create_table(&app, four_open(json!({"expires_in_s": 1}))).await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let r = join(&app, &id, None, json!({})).await;
    assert_eq!(r.status, StatusCode::OK);
    let token = r.json["token"]["token"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let r = join(&app, &id, None, json!({})).await;
    assert_eq!(r.status, StatusCode::GONE, "{}", r.text);
    assert_eq!(r.json["code"], "table_expired");
    let left = app
        .post(&format!("/v1/tables/{id}/leave"), Some(&token), json!({}))
        .await;
    assert_eq!(left.status, StatusCode::GONE);
    assert_eq!(
        app.get(&format!("/v1/tables/{id}"), None).await.json["status"],
        "expired"
    );
    assert!(
        !lobby_ids(&app, "").await.contains(&id),
        "expired tables leave the lobby"
    );
    for bad in [json!({"expires_in_s": 0}), json!({"expires_in_s": 86_401})] {
        let r = app.post("/v1/tables", None, four_open(bad)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST);
    }
}

/// Every table id in the lobby, page by page.
async fn lobby_ids(app: &crate::app::TestApp, query: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let cursor = after
            .as_ref()
            .map(|a| format!("&after={a}"))
            .unwrap_or_default();
        let r = app
            .get(&format!("/v1/lobby?limit=2{query}{cursor}"), None)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        for t in r.json["tables"].as_array().unwrap() {
            assert_eq!(t["status"], "open");
            ids.push(t["table_id"].as_str().unwrap().to_string());
        }
        match r.json["next"].as_str() {
            Some(n) => after = Some(n.to_string()),
            None => return ids,
        }
    }
}

async fn the_lobby_lists_open_public_tables_by_variant(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let mut pairs = Vec::new();
    for _ in 0..3 {
        let t = create_table(&app, four_open(json!({}))).await;
        pairs.push(t["table"]["table_id"].as_str().unwrap().to_string());
    }
    let t = create_table(
        &app,
        json!({"rules": {"variant": "abarrotada3"}, "seats": [{"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]}),
    )
    .await;
    let three = t["table"]["table_id"].as_str().unwrap().to_string();
    let private = create_table(&app, four_open(json!({"visibility": "private"}))).await;
    let private = private["table"]["table_id"].as_str().unwrap().to_string();
    let full = create_table(&app, four_open(json!({}))).await;
    let full = full["table"]["table_id"].as_str().unwrap().to_string();
    for _ in 0..4 {
        join(&app, &full, None, json!({})).await;
    }

    let all = lobby_ids(&app, "").await;
    for id in pairs.iter().chain([&three]) {
        assert!(all.contains(id), "{id} is listed");
    }
    assert!(!all.contains(&private) && !all.contains(&full));
    let only_pairs = lobby_ids(&app, "&variant=pairs").await;
    assert!(pairs.iter().all(|id| only_pairs.contains(id)));
    assert!(!only_pairs.contains(&three));
    assert!(
        lobby_ids(&app, "&variant=abarrotada3")
            .await
            .contains(&three)
    );
    for bad in ["?variant=chess", "?limit=0", "?limit=101", "?after=%2A"] {
        let r = app.get(&format!("/v1/lobby{bad}"), None).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.text);
    }
    for bad in [
        json!({"seats": [{"kind": "remote"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}),
        json!({"seats": [{"kind": "open"}]}),
        json!({"seats": [{"kind": "open", "player": "p000000000000000000000000"}, {}, {}, {}]}),
        json!({"seats": [{"kind": "bot", "bot": "nobody"}, {}, {}, {}]}),
    ] {
        let r = app.post("/v1/tables", None, bad).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    }
}

async fn a_private_table_is_joined_with_its_invite_code(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let created = create_table(&app, four_open(json!({"visibility": "private"}))).await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let code = created["invite_code"].as_str().unwrap().to_string();
    assert_eq!(code.len(), 8);
    let r = app.get(&format!("/v1/invites/{code}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["table_id"], id.as_str());
    assert!(
        !r.text.contains(&code),
        "the code is shown only to the creator"
    );
    // Typed by a person: lower case, with a dash.
    let typed = format!("{}-{}", &code[..4], &code[4..]).to_lowercase();
    let r = app
        .post(
            &format!("/v1/invites/{typed}/join"),
            None,
            json!({"name": "cosina"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["table"]["table_id"], id.as_str());
    let r = app.get("/v1/invites/ZZZZZZZZ", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json["code"], "invite_not_found");
}

async fn a_private_table_is_not_joined_by_its_id(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "uninvited", "human").await;
    let created = create_table(&app, four_open(json!({"visibility": "private"}))).await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let code = created["invite_code"].as_str().unwrap().to_string();
    let path = format!("/v1/tables/{id}");
    let before = app.get(&path, None).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    assert!(
        before.json.get("invite_code").is_none() && !before.text.contains(&code),
        "the code is shown only in the creator's answer: {}",
        before.text
    );

    for (cred, body) in [
        (None, json!({})),
        (None, json!({"seat": 1, "name": "Pere"})),
        (Some(p.key.as_str()), json!({})),
        (None, json!({"name": "Anna", "partner": {"name": "Jordi"}})),
    ] {
        let r = join(&app, &id, cred, body).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
        assert_eq!(r.json["code"], "forbidden");
        assert!(
            r.json["detail"].as_str().unwrap().contains("invite code"),
            "{}",
            r.text
        );
        assert!(secrets_in(&r.text).is_empty() && !r.text.contains(&code));
    }
    let after = app.get(&path, None).await;
    assert_eq!(after.json, before.json, "a refused join changes nothing");
    assert_eq!(after.json["open_seats"], 4);

    // With its code the same player sits down, and still sees no code.
    let r = app
        .post(&format!("/v1/invites/{code}/join"), Some(&p.key), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["token"]["seat"], 0);
    assert_eq!(r.json["table"]["seats"][0]["player"]["id"], p.id.as_str());
    assert!(!r.text.contains(&code), "{}", r.text);
    let seated = app.get(&path, Some(&p.key)).await;
    assert_eq!(seated.json["open_seats"], 3);
    assert!(!seated.text.contains(&code), "{}", seated.text);
    // A public table is still joined by its id.
    let public = create_table(&app, four_open(json!({}))).await;
    let public = public["table"]["table_id"].as_str().unwrap().to_string();
    assert_eq!(
        join(&app, &public, None, json!({})).await.status,
        StatusCode::OK
    );
}

async fn guessing_invite_codes_is_rate_limited(backend: Backend) {
    let mut opts = unlimited();
    opts.rate_limits.invites_per_min = 5;
    let app = spawn_lobby_with(backend, opts).await;
    let created = create_table(&app, four_open(json!({"visibility": "private"}))).await;
    let code = created["invite_code"].as_str().unwrap().to_string();
    let mut statuses = Vec::new();
    for i in 0..8 {
        let r = app.get(&format!("/v1/invites/{:08}", i), None).await;
        statuses.push(r.status);
    }
    assert!(
        statuses[..5].iter().all(|s| *s == StatusCode::NOT_FOUND),
        "{statuses:?}"
    );
    assert!(
        statuses[5..]
            .iter()
            .all(|s| *s == StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    // Even the right code must wait.
    let r = app.get(&format!("/v1/invites/{code}"), None).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(r.json["code"], "rate_limited");
}

async fn no_secret_shows_anywhere_but_where_it_is_issued(backend: Backend) {
    let logs = crate::logs::capture();
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "secretive", "bot").await;
    let created = create_table_as(
        &app,
        Some(&p.key),
        four_open(json!({"visibility": "private", "seats": [{"kind": "remote", "player": p.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "remote"}]})),
    )
    .await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let code = created["invite_code"].as_str().unwrap().to_string();
    let mut issued: Vec<String> = secrets_in(&created.to_string());
    issued.push(p.key.clone());
    let by_code = format!("/v1/invites/{code}/join");
    let a = app.post(&by_code, None, json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    issued.extend(secrets_in(&a.text));
    let rotated = app
        .post("/v1/players/me/key", Some(&p.key), json!({}))
        .await;
    issued.extend(secrets_in(&rotated.text));
    let key = rotated.json["api_key"].as_str().unwrap().to_string();
    let b = app.post(&by_code, None, json!({})).await;
    assert_eq!(b.status, StatusCode::OK, "{}", b.text);
    issued.extend(secrets_in(&b.text));
    assert_eq!(issued.len(), 6, "{issued:?}");

    let mut texts = Vec::new();
    for path in [
        format!("/v1/tables/{id}"),
        format!("/v1/matches/{id}"),
        format!("/v1/matches/{id}/events"),
        format!("/v1/matches/{id}/history"),
        format!("/v1/players/{}", p.id),
        "/v1/lobby".to_string(),
    ] {
        texts.push(app.get(&path, None).await.text);
        texts.push(app.get(&path, Some(&key)).await.text);
    }
    texts.push(app.get("/v1/players/me", Some(&key)).await.text);
    texts.push(app.get("/v1/players/me/events", Some(&key)).await.text);
    texts.push(
        app.get(&format!("/v1/players/me/events?access_token={key}"), None)
            .await
            .text,
    );
    texts.push(app.get(&format!("/v1/invites/{code}"), None).await.text);
    for text in &texts {
        assert!(secrets_in(text).is_empty(), "a secret leaked: {text}");
        assert!(!text.contains(&code), "an invite code leaked: {text}");
    }
    let logged = logs.text();
    for secret in &issued {
        assert!(!logged.contains(secret.as_str()), "a secret was logged");
    }
    assert!(!logged.contains(&code), "an invite code was logged");
}

async fn a_house_bots_player_at_a_remote_seat_is_refused_like_in_a_match(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let house = json!({"kind": "remote", "player": "house-heuristic"});
    let open = json!({"kind": "open"});
    let before = lobby_ids(&app, "").await;
    let r = app
        .post(
            "/v1/tables",
            None,
            json!({"seats": [house, open, open, open]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(r.json["code"], "invalid_request");
    assert!(
        r.json["detail"]
            .as_str()
            .unwrap()
            .contains("house bots sit at `bot` seats"),
        "{}",
        r.text
    );
    // The same seat in a match is refused with the same words.
    let m = app
        .post(
            "/v1/matches",
            None,
            json!({"seats": [house, {"kind": "remote"}, {"kind": "remote"}, {"kind": "remote"}]}),
        )
        .await;
    assert_eq!(m.status, StatusCode::BAD_REQUEST, "{}", m.text);
    assert_eq!(m.json["detail"], r.json["detail"]);
    assert_eq!(lobby_ids(&app, "").await, before, "nothing was listed");
}

all_stores!(
    a_house_bots_player_at_a_remote_seat_is_refused_like_in_a_match,
    the_last_join_starts_the_match_with_every_seat_known,
    leaving_before_the_start_frees_the_seat,
    an_unfilled_table_expires,
    the_lobby_lists_open_public_tables_by_variant,
    a_private_table_is_joined_with_its_invite_code,
    a_private_table_is_not_joined_by_its_id,
    guessing_invite_codes_is_rate_limited,
    no_secret_shows_anywhere_but_where_it_is_issued,
);
