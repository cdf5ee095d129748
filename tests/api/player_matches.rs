//! `GET /v1/players/me/matches` (a player's ongoing and finished matches,
//! paginated) and the list of ongoing matches a fresh player event stream
//! opens with.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_lobby_app};
use crate::backends::both_stores;
use crate::lobby_client::{PlayerKey, register};

/// Creates a match with `key`'s player at `seat` (a remote anonymous seat
/// before it, house bots after), seat 0 to deal; returns its id.
async fn create_at(app: &TestApp, p: &PlayerKey, seat: usize, max_hands: u32) -> String {
    let mut seats = vec![json!({"kind": "remote"}); seat];
    seats.push(json!({"player": p.id}));
    seats.resize(4, json!({"kind": "bot"}));
    let body = json!({"rules": {"first_dealer": 0, "max_hands": max_hands}, "seats": seats});
    let r = app.post("/v1/matches", Some(&p.key), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // Matches made in one millisecond sort by id; keep them apart.
    tokio::time::sleep(Duration::from_millis(5)).await;
    r.json["match_id"].as_str().unwrap().to_string()
}

/// The ids and whole rows of every page of `key`'s list, `limit` a page.
async fn all_pages(app: &TestApp, key: &str, query: &str, limit: usize) -> Vec<Value> {
    let mut rows = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..20 {
        let mut path = format!("/v1/players/me/matches?limit={limit}{query}");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let r = app.get(&path, Some(key)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let page = r.json["matches"].as_array().unwrap().clone();
        assert!(page.len() <= limit);
        rows.extend(page);
        match r.json["next"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return rows,
        }
    }
    panic!("the list does not end");
}

fn ids(rows: &[Value]) -> Vec<&str> {
    rows.iter()
        .map(|m| m["match_id"].as_str().unwrap())
        .collect()
}

async fn the_list_shows_ongoing_then_finished_matches_a_page_at_a_time(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let a = register(&app, "lister", "bot").await;
    let b = register(&app, "other", "bot").await;
    let done = create_at(&app, &a, 0, 1).await;
    app.finish_match(&done, &a.key).await;
    let mine = create_at(&app, &a, 0, 10).await;
    let waiting = create_at(&app, &a, 1, 10).await;
    let theirs = create_at(&app, &b, 0, 10).await;
    // The match that ended is listed as finished once its end is heard of.
    let mut rows = Vec::new();
    for _ in 0..100 {
        rows = all_pages(&app, &a.key, "", 100).await;
        if ids(&rows).contains(&done.as_str()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(ids(&rows), [&waiting, &mine, &done], "{rows:?}");
    let (w, m, d) = (&rows[0], &rows[1], &rows[2]);
    assert_eq!((w["seat"].as_u64(), w["turn"].as_u64()), (Some(1), Some(0)));
    assert_eq!(w["your_turn"], false);
    assert_eq!((m["seat"].as_u64(), m["turn"].as_u64()), (Some(0), Some(0)));
    assert_eq!(m["your_turn"], true);
    assert_eq!(
        (m["phase"].as_str(), m["over"].as_bool()),
        (Some("awaiting_deal"), Some(false))
    );
    assert_eq!(
        (m["variant"].as_str(), m["rated"].as_bool()),
        (Some("pairs"), Some(false))
    );
    assert!(m["created_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(
        (d["over"].as_bool(), d["phase"].as_str()),
        (Some(true), Some("match_over"))
    );
    assert_eq!(
        (d["turn"].clone(), d["your_turn"].clone()),
        (Value::Null, json!(false))
    );
    let view = app.get(&format!("/v1/matches/{mine}"), None).await.json;
    assert_eq!(
        (m["version"].clone(), m["last_seq"].clone()),
        (view["version"].clone(), view["last_seq"].clone())
    );
    // One a page: the same list, in the same order, each once.
    assert_eq!(
        ids(&all_pages(&app, &a.key, "", 1).await),
        [&waiting, &mine, &done]
    );
    assert_eq!(
        ids(&all_pages(&app, &a.key, "", 2).await),
        [&waiting, &mine, &done]
    );
    let ongoing = all_pages(&app, &a.key, "&status=ongoing", 1).await;
    assert_eq!(ids(&ongoing), [&waiting, &mine]);
    assert_eq!(
        ids(&all_pages(&app, &a.key, "&status=finished", 5).await),
        [&done]
    );
    // Another player sees only its own.
    assert_eq!(ids(&all_pages(&app, &b.key, "", 20).await), [&theirs]);
}

async fn the_list_refuses_a_missing_key_and_bad_queries(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let a = register(&app, "lister", "human").await;
    for key in [None, Some("bp_nobody_00"), Some("bt_00")] {
        let r = app.get("/v1/players/me/matches", key).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    }
    for q in [
        "limit=0",
        "limit=101",
        "cursor=x",
        "cursor=f",
        "status=over",
        "cursor=fabc&status=ongoing",
    ] {
        let r = app
            .get(&format!("/v1/players/me/matches?{q}"), Some(&a.key))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{q}: {}", r.text);
        assert_eq!(r.content_type, "application/problem+json");
    }
    let r = app.get("/v1/players/me/matches", Some(&a.key)).await;
    assert_eq!(r.json, json!({"matches": [], "next": null}));
}

async fn a_restarted_bot_finds_its_match_and_plays_it(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let bot = register(&app, "forgetful", "bot").await;
    let id = create_at(&app, &bot, 0, 10).await;
    // The bot restarts: all it kept is its key.
    let r = app
        .get("/v1/players/me/matches?status=ongoing", Some(&bot.key))
        .await;
    let found = &r.json["matches"][0];
    assert_eq!(found["match_id"], id.as_str());
    assert_eq!(found["your_turn"], true);
    let body = json!({"type": "deal", "expected_version": found["version"]});
    let r = app
        .post(&format!("/v1/matches/{id}/actions"), Some(&bot.key), body)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// The first events of `key`'s player stream, as text, opened with
/// `headers`, read until it holds `until`.
pub async fn stream_text(
    app: &TestApp,
    key: &str,
    headers: &[(&str, &str)],
    until: &str,
) -> String {
    let mut req = app
        .client
        .get(format!("{}/v1/players/me/events", app.base))
        .bearer_auth(key)
        .header("accept", "text/event-stream");
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let mut body = resp.bytes_stream();
    let mut text = String::new();
    while !text.contains(until) {
        let chunk = tokio::time::timeout(Duration::from_secs(10), body.next())
            .await
            .expect("an event arrives")
            .unwrap()
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    text
}

async fn a_fresh_player_stream_opens_with_its_ongoing_matches(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "streamer", "bot").await;
    let first = create_at(&app, &p, 0, 10).await;
    let second = create_at(&app, &p, 1, 10).await;
    let polled = app.get("/v1/players/me/events", Some(&p.key)).await.json;
    let last_seq = polled["last_seq"].as_u64().unwrap();
    assert!(last_seq >= 2, "{polled}");
    // A fresh connect: the list first, unnumbered, then the kept events.
    let text = stream_text(&app, &p.key, &[], "id: 2\n").await;
    let (head, rest) = text.split_once("\n\n").unwrap();
    let data = head.strip_prefix("event: matches\ndata: ").expect(&text);
    let opening: Value = serde_json::from_str(data).unwrap();
    assert_eq!(opening["type"], "matches");
    assert_eq!(opening["last_seq"].as_u64(), Some(last_seq));
    assert_eq!(
        ids(opening["ongoing"].as_array().unwrap()),
        [&second, &first]
    );
    assert_eq!(opening["ongoing"][1]["your_turn"], true);
    assert!(rest.starts_with("id: 1\nevent: match_started\n"), "{text}");
    // A resume: no list, the events after the one named.
    let text = stream_text(&app, &p.key, &[("last-event-id", "1")], "id: 2\n").await;
    assert!(text.starts_with("id: 2\n"), "{text}");
    assert!(!text.contains("event: matches"), "{text}");
    // The long poll: the list on a fresh poll (no `after`, or 0) only.
    assert_eq!(
        ids(polled["ongoing"].as_array().unwrap()),
        [&second, &first]
    );
    let r = app
        .get("/v1/players/me/events?after=0", Some(&p.key))
        .await
        .json;
    assert_eq!(ids(r["ongoing"].as_array().unwrap()), [&second, &first]);
    let r = app
        .get("/v1/players/me/events?after=1", Some(&p.key))
        .await
        .json;
    assert!(r.get("ongoing").is_none(), "{r}");
}

async fn another_instance_lists_the_match_and_its_end(backend: Backend) {
    let apps = crate::app::instances(backend).await;
    let (one, other) = (&apps[0], apps.last().unwrap());
    let p = register(one, "roamer", "bot").await;
    let id = create_at(one, &p, 0, 1).await;
    let r = other.get("/v1/players/me/matches", Some(&p.key)).await;
    assert_eq!(ids(r.json["matches"].as_array().unwrap()), [&id]);
    assert_eq!(r.json["matches"][0]["over"], false);
    one.finish_match(&id, &p.key).await;
    for _ in 0..100 {
        let r = other
            .get("/v1/players/me/matches?status=finished", Some(&p.key))
            .await;
        if ids(r.json["matches"].as_array().unwrap()) == [&id] {
            let r = other
                .get("/v1/players/me/matches?status=ongoing", Some(&p.key))
                .await;
            assert_eq!(r.json["matches"], json!([]));
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the finished match is not listed as finished");
}

async fn a_rated_challenge_is_listed_for_each_of_its_players(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let mut p = Vec::new();
    for name in ["ana", "bet", "cai"] {
        p.push(register(&app, name, "human").await);
    }
    let body = json!({"variant": "abarrotada", "rated": true, "opponents": [p[1].id, p[2].id], "fill_with": "random"});
    let r = app.post("/v1/challenges", Some(&p[0].key), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["challenge_id"].as_str().unwrap().to_string();
    for who in &p[1..] {
        let path = format!("/v1/challenges/{id}/accept");
        let r = app
            .send(reqwest::Method::POST, &path, Some(&who.key), None, &[])
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let mut seats = Vec::new();
    for who in &p {
        // A house bot may move meanwhile: compare a row and a view of one
        // version.
        for _ in 0..50 {
            let r = app.get("/v1/players/me/matches", Some(&who.key)).await;
            let view = app.get(&format!("/v1/matches/{id}"), None).await.json;
            let rows = r.json["matches"].as_array().unwrap();
            assert_eq!(ids(rows), [&id], "{}", r.text);
            let m = &rows[0];
            if m["version"] != view["version"] {
                continue;
            }
            let rated = (m["rated"].as_bool(), m["variant"].as_str());
            assert_eq!(rated, (Some(true), Some("abarrotada")));
            let seat = m["seat"].as_u64().unwrap();
            assert_eq!(
                view["seats"][seat as usize]["player"]["id"],
                who.id.as_str()
            );
            assert_eq!(m["turn"], view["turn"]);
            assert_eq!(m["your_turn"], json!(view["turn"].as_u64() == Some(seat)));
            seats.push(seat);
            break;
        }
    }
    seats.sort();
    seats.dedup();
    assert_eq!(
        seats.len(),
        3,
        "each player its own seat, read at one version"
    );
}

both_stores!(
    a_rated_challenge_is_listed_for_each_of_its_players,
    another_instance_lists_the_match_and_its_end,
    the_list_shows_ongoing_then_finished_matches_a_page_at_a_time,
    the_list_refuses_a_missing_key_and_bad_queries,
    a_restarted_bot_finds_its_match_and_plays_it,
    a_fresh_player_stream_opens_with_its_ongoing_matches,
);
