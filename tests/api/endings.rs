//! Ending a match early (docs/api.md, "Ending a match early" and "Move
//! clocks"): resigning the match, aborting it before the minimum of play,
//! losing it by abandonment on the clock with nobody reading, and claiming
//! victory over an absent opponent. Each is rated once (or not at all for
//! an abort), and a fresh service replaying the stored moves finds the
//! same match.

use std::sync::Arc;
use std::time::Duration;

use botifarra::lobby::Lobby;
use botifarra::rules::{EndedBy, Ending, Phase, Variant, Winner};
use botifarra::service::{Limits, MatchRecord, NewMatch, Service};
use botifarra::store::MatchStore;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::app::{Backend, TestApp, lobby_store_for, spawn_service, store_for, unlimited};
use crate::backends::both_stores;
use crate::ratings::{Seated, rated_match, rated_match_with};

/// A lobby over `backend` with `limits`, and its match store.
async fn lobby(backend: Backend, limits: Limits) -> (Lobby, Arc<dyn MatchStore>) {
    let store = store_for(backend, None).await;
    let svc = Service::new(Arc::clone(&store), limits).unwrap();
    (Lobby::new(svc, lobby_store_for(backend).await), store)
}

/// The match as a fresh service reads it back from the store (replaying
/// its moves), equal to what the running service holds.
async fn replayed_same(lobby: &Lobby, store: &Arc<dyn MatchStore>, id: &str) -> MatchRecord {
    let live = lobby.service().record(id).await.unwrap();
    let fresh = Service::new(Arc::clone(store), Limits::default()).unwrap();
    let again = fresh.record(id).await.unwrap();
    assert_eq!(again.game, live.game, "the replay gives the same match");
    assert_eq!(again.version, live.version);
    assert_eq!(again.missed, live.missed, "the missed moves replay too");
    Arc::unwrap_or_clone(again)
}

/// Plays the registered players' moves (a pass when they may, else their
/// first legal action) until `done` holds of the spectator view.
async fn play_until(app: &TestApp, id: &str, players: &[Seated], done: impl Fn(&Value) -> bool) {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let v = app.get(&format!("/v1/matches/{id}"), None).await.json;
        if done(&v) {
            return;
        }
        assert!(Instant::now() < until, "never reached: {v}");
        let Some(p) = v["turn"].as_u64().and_then(|t| players.get(t as usize)) else {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        let mine = app.get(&format!("/v1/matches/{id}"), Some(&p.key)).await;
        let legal = mine.json["legal_actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let pass = legal.iter().find(|a| a["call"] == "pass");
        let Some(action) = pass.or(legal.first()).cloned() else {
            continue;
        };
        let path = format!("/v1/matches/{id}/actions");
        app.post(&path, Some(&p.key), action).await;
    }
}

/// A hand played to its last trick: the match rates from then on.
fn a_hand_played(v: &Value) -> bool {
    v["hands"]
        .as_array()
        .is_some_and(|h| h.iter().any(|r| r["forfeit"].is_null()))
}

/// A rated pairs match, players at seats 0 and 1, in which they played a
/// hand to its last trick and which goes on. A hand doubled up to a large
/// multiplier can reach the target by itself: then another match.
async fn played_and_going(lobby: &Lobby, app: &TestApp) -> (String, Vec<Seated>) {
    for _ in 0..10 {
        let (id, players) = rated_match(lobby, Variant::Pairs, 2).await;
        let over = |v: &Value| v["phase"] == "match_over";
        play_until(app, &id, &players, |v| a_hand_played(v) || over(v)).await;
        if !over(&app.get(&format!("/v1/matches/{id}"), None).await.json) {
            return (id, players);
        }
    }
    panic!("every match ended with its first hand");
}

/// Whether `r` is the refusal of an ending because the match had just
/// ended by itself (reached its target): the test then tries again.
fn ended_first(r: &crate::app::Reply) -> bool {
    r.status == StatusCode::CONFLICT && r.json["code"] == "wrong_phase"
}

/// The games a player's rating in its one pool counts (0 when unrated).
async fn games(app: &TestApp, p: &Seated) -> u64 {
    let r = app
        .get(&format!("/v1/players/{}/ratings", p.id), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json["pools"][0]["games"].as_u64().unwrap_or(0)
}

/// Waits until the player's rating counts `n` games.
async fn rated(app: &TestApp, p: &Seated, n: u64) {
    let until = Instant::now() + Duration::from_secs(60);
    while games(app, p).await < n {
        assert!(Instant::now() < until, "{} never rated", p.id);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn a_resigned_rated_match_ends_at_once_and_is_rated_once(backend: Backend) {
    let (lobby, store) = lobby(backend, Limits::default()).await;
    let app = spawn_service(lobby.clone(), unlimited());
    let (id, players, r) = loop {
        let (id, players) = played_and_going(&lobby, &app).await;
        let before = app.get(&format!("/v1/matches/{id}"), None).await.json;
        assert_eq!(before["ended_by"], Value::Null);
        // Seat 1 resigns the match, in whatever phase it is.
        let path = format!("/v1/matches/{id}/resign");
        let r = app
            .post(&path, Some(&players[1].key), json!({"scope": "match"}))
            .await;
        if !ended_first(&r) {
            break (id, players, r);
        }
    };
    let path = format!("/v1/matches/{id}/resign");
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["phase"], "match_over");
    assert_eq!(r.json["winner"], 0, "the other side won");
    assert_eq!(r.json["ended_by"], json!({"seat": 1, "how": "resigned"}));
    assert_eq!(r.json["turn"], Value::Null);
    // Nothing more: another resignation is refused.
    let again = app
        .post(&path, Some(&players[0].key), json!({"scope": "match"}))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    // Rated once: the winner above the loser.
    rated(&app, &players[0], 1).await;
    rated(&app, &players[1], 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(games(&app, &players[0]).await, 1);
    assert_eq!(games(&app, &players[1]).await, 1);
    let rating = |p: &Seated| {
        let app = &app;
        let path = format!("/v1/players/{}/ratings", p.id);
        async move { app.get(&path, None).await.json["pools"][0]["rating"].as_f64() }
    };
    assert!(rating(&players[0]).await > rating(&players[1]).await);
    // The events say it, and the store replays it.
    let events = app
        .get(&format!("/v1/matches/{id}/events"), None)
        .await
        .json;
    let ended: Vec<&Value> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "match_ended")
        .collect();
    assert_eq!(ended.len(), 1, "{events}");
    assert_eq!(ended[0]["ending"], json!({"how": "resigned"}));
    let rec = replayed_same(&lobby, &store, &id).await;
    let resigned = EndedBy {
        seat: 1,
        ending: Ending::Resigned,
    };
    assert_eq!(rec.game.ended_by, Some(resigned));
    assert_eq!(rec.game.winner, Some(Winner::Side(0)));
}

async fn an_abort_ends_unrated_before_a_hand_is_played_and_is_refused_after(backend: Backend) {
    let (lobby, store) = lobby(backend, Limits::default()).await;
    let app = spawn_service(lobby.clone(), unlimited());
    // Aborted before any hand is complete: over, no winner, unrated.
    let (id, players) = rated_match(&lobby, Variant::Pairs, 2).await;
    let r = app
        .post(
            &format!("/v1/matches/{id}/abort"),
            Some(&players[0].key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["phase"], "match_over");
    assert_eq!(r.json["winner"], Value::Null);
    assert_eq!(r.json["ended_by"], json!({"seat": 0, "how": "aborted"}));
    let rec = replayed_same(&lobby, &store, &id).await;
    assert_eq!(rec.game.winner, None);
    // Counted as played, never rated.
    let me = format!("/v1/players/{}", players[1].id);
    let until = Instant::now() + Duration::from_secs(30);
    while app.get(&me, None).await.json["matches_played"] != 1 {
        assert!(Instant::now() < until, "the aborted match never counted");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(games(&app, &players[0]).await, 0);
    assert_eq!(games(&app, &players[1]).await, 0);
    // After a hand played to its last trick: refused, nothing changed.
    let (late, players) = played_and_going(&lobby, &app).await;
    let version = lobby.service().record(&late).await.unwrap().version;
    let path = format!("/v1/matches/{late}/abort");
    let r = app.post(&path, Some(&players[1].key), json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "abort_too_late", "{}", r.text);
    let now = lobby.service().record(&late).await.unwrap();
    assert_eq!(now.version, version, "nothing changed");
    assert_eq!(now.game.ended_by, None);
}

async fn a_silent_player_loses_a_rated_match_by_abandonment_unread(backend: Backend) {
    // A 20 ms clock, and enough missed moves allowed that the stand-in
    // plays the first hand to its end (which makes the match rated).
    let limits = Limits {
        rated_bot_clock_ms: 20,
        abandon_after_missed: 20,
        ..Limits::default()
    };
    let (lobby, store) = lobby(backend, limits).await;
    // The player never moves, and nobody reads the match.
    let app = spawn_service(lobby.clone(), unlimited());
    let (id, players) = loop {
        let (id, players) = rated_match(&lobby, Variant::Pairs, 1).await;
        let until = Instant::now() + Duration::from_secs(60);
        let rec = loop {
            let rec = lobby.service().record(&id).await.unwrap();
            if rec.game.phase() == Phase::MatchOver {
                break rec;
            }
            assert!(Instant::now() < until, "never over: {:?}", rec.missed);
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        // A doubled first hand may reach the target first: another match.
        if rec.game.ended_by.is_some() {
            break (id, players);
        }
    };
    rated(&app, &players[0], 1).await;
    let rec = replayed_same(&lobby, &store, &id).await;
    let gone = EndedBy {
        seat: 0,
        ending: Ending::Abandoned,
    };
    assert_eq!(rec.game.ended_by, Some(gone));
    assert_eq!(rec.game.winner, Some(Winner::Side(1)), "its side lost");
    assert_eq!(rec.missed[0], 20, "ended at the 20th missed move");
    assert!(rec.game.played_enough());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(games(&app, &players[0]).await, 1, "rated once");
}

async fn a_claim_is_refused_before_the_missed_moves_and_wins_after(backend: Backend) {
    let limits = Limits {
        rated_bot_clock_ms: 20,
        abandon_after_missed: 100,
        ..Limits::default()
    };
    let (lobby, store) = lobby(backend, limits).await;
    let app = spawn_service(lobby.clone(), unlimited());
    // A slow clock: nobody has missed anything yet.
    let slow = NewMatch {
        move_timeout_ms: Some(60_000),
        ..NewMatch::default()
    };
    let (early, players) = rated_match_with(&lobby, Variant::Pairs, 2, slow).await;
    let path = format!("/v1/matches/{early}/claim");
    for against in [1, 2] {
        let r = app
            .post(&path, Some(&players[0].key), json!({"against": against}))
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{against}: {}", r.text);
        assert_eq!(r.json["code"], "claim_too_early", "{}", r.text);
    }
    // A seat no variant has is malformed.
    let r = app
        .post(&path, Some(&players[0].key), json!({"against": 9}))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(r.json["code"], "invalid_request", "{}", r.text);
    assert_eq!(
        lobby.service().record(&early).await.unwrap().game.ended_by,
        None
    );
    // Both players silent on a 20 ms clock: once a hand is played and
    // seat 1 has missed 2 moves in a row, seat 0 claims and wins.
    let (id, players, r) = loop {
        let (id, players) = rated_match(&lobby, Variant::Pairs, 2).await;
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let rec = lobby.service().record(&id).await.unwrap();
            let over = rec.game.phase() == Phase::MatchOver;
            if over || rec.game.played_enough() && rec.missed[1] >= 2 {
                break;
            }
            assert!(Instant::now() < until, "never missed: {:?}", rec.missed);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let path = format!("/v1/matches/{id}/claim");
        let r = app
            .post(&path, Some(&players[0].key), json!({"against": 1}))
            .await;
        if !ended_first(&r) {
            break (id, players, r);
        }
    };
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["winner"], 0);
    assert_eq!(
        r.json["ended_by"],
        json!({"seat": 0, "how": "claimed", "against": 1})
    );
    rated(&app, &players[0], 1).await;
    rated(&app, &players[1], 1).await;
    let rec = replayed_same(&lobby, &store, &id).await;
    assert_eq!(rec.game.early_loser(), Some(1));
}

both_stores!(
    a_resigned_rated_match_ends_at_once_and_is_rated_once,
    an_abort_ends_unrated_before_a_hand_is_played_and_is_refused_after,
    a_silent_player_loses_a_rated_match_by_abandonment_unread,
    a_claim_is_refused_before_the_missed_moves_and_wins_after,
);
