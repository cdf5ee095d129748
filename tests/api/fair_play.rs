//! Fair play, rated means earned: the farm of issue 27 (rated challenges
//! against fresh accounts that resign at once) re-run and left harmless,
//! results against the same opponent counted 3 times a day, provisional
//! opponents leaving an established rating alone, and every finished
//! match counted in `matches_played` exactly once, also when the instance
//! that finished it never told the lobby.

use std::sync::Arc;

use botifarra::lobby::Lobby;
use botifarra::lobby::records::{PlayerRecord, decode, encode};
use botifarra::lobby::store::Doc;
use botifarra::service::{Limits, Service};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, lobby_store_for, spawn_service, store_for, unlimited};
use crate::backends::both_stores;
use crate::lobby_client::{PlayerKey, player_events, register};

/// Creates a rated pairs challenge from `from` against `to` (house bots
/// at the other seats) and has `to` accept it: the match id.
async fn rated_challenge(app: &TestApp, from: &PlayerKey, to: &PlayerKey) -> String {
    let body = json!({"variant": "pairs", "rated": true, "opponents": [to.id], "fill_with": "random", "auto_deal": true});
    let r = app.post("/v1/challenges", Some(&from.key), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["challenge_id"].as_str().unwrap().to_string();
    let path = format!("/v1/challenges/{id}/accept");
    let r = app
        .send(Method::POST, &path, Some(&to.key), None, &[])
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    id
}

/// A server over `backend`'s stores trusting one proxy, so that a test
/// registers players from the addresses it names.
async fn fair_app(backend: Backend) -> (Lobby, TestApp) {
    let lobby = crate::app::lobby_for(backend).await;
    let mut opts = unlimited();
    opts.rate_limits.trusted_proxies = 1;
    (lobby.clone(), spawn_service(lobby, opts))
}

/// Registers a player from client address `addr`.
async fn register_at(app: &TestApp, name: &str, addr: &str) -> PlayerKey {
    let body = json!({"name": name, "kind": "human"});
    let headers = [("X-Forwarded-For", addr)];
    let r = app
        .send(Method::POST, "/v1/players", None, Some(body), &headers)
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    PlayerKey {
        id: r.json["player"]["id"].as_str().unwrap().to_string(),
        key: r.json["api_key"].as_str().unwrap().to_string(),
    }
}

/// The match's spectator view.
async fn view(app: &TestApp, id: &str) -> Value {
    let r = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json
}

/// `key` resigns every hand until the match is over.
async fn resign_to_end(app: &TestApp, id: &str, key: &str) {
    for _ in 0..200 {
        if view(app, id).await["phase"] == "match_over" {
            return;
        }
        let r = app
            .post(&format!("/v1/matches/{id}/resign"), Some(key), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    panic!("match {id} did not end");
}

/// Plays the first hand to its end with the players' keys by seat (house
/// bots play the others), then has `loser` resign every hand after.
async fn one_hand_then_resign(app: &TestApp, id: &str, keys: &[&str], loser: &str) {
    for _ in 0..500 {
        let v = view(app, id).await;
        if !v["hands"].as_array().is_none_or(Vec::is_empty) || v["phase"] == "match_over" {
            break;
        }
        let Some(key) = v["turn"].as_u64().and_then(|t| keys.get(t as usize)) else {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            continue;
        };
        let mine = app.get(&format!("/v1/matches/{id}"), Some(key)).await;
        let Some(action) = mine.json["legal_actions"].get(0) else {
            continue;
        };
        crate::lobby_client::post_at_version(app, id, key, action, &mine.json["version"]).await;
    }
    resign_to_end(app, id, loser).await;
}

/// A player's profile.
async fn profile(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/v1/players/{id}"), None).await.json
}

/// A player's rating history in `pool`, newest first.
async fn history(app: &TestApp, id: &str) -> Vec<Value> {
    let r = app.get(&format!("/v1/players/{id}/ratings"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json["pools"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["history"].as_array().unwrap().clone())
        .collect()
}

/// The farm of issue 27: 40 rounds of a rated one-against-one challenge
/// against a fresh account that accepts and resigns at once took the
/// farmer from 1500 to 2141. Every such match is now aborted: nobody's
/// rating moves, and each is still counted as played once.
async fn the_farm_of_fresh_accounts_resigning_at_once_earns_nothing(backend: Backend) {
    let app = spawn_service(crate::app::lobby_for(backend).await, unlimited());
    let farmer = register(&app, "farmer", "human").await;
    let mut last = String::new();
    for round in 0..40 {
        let puppet = register(&app, &format!("puppet {round}"), "human").await;
        last = rated_challenge(&app, &farmer, &puppet).await;
        resign_to_end(&app, &last, &puppet.key).await;
        assert_eq!(
            view(&app, &last).await["winner"],
            0,
            "the farmer's side won"
        );
        let p = profile(&app, &puppet.id).await;
        assert_eq!(p["ratings"], json!([]), "the puppet is not rated");
        assert_eq!(p["matches_played"], 1);
    }
    let p = profile(&app, &farmer.id).await;
    assert_eq!(p["ratings"], json!([]), "no rating earned: {p}");
    assert_eq!(p["matches_played"], 40, "every match counted once");
    let board = app
        .get("/v1/leaderboard?variant=pairs&limit=100", None)
        .await;
    assert!(
        !board.text.contains(&farmer.id),
        "not on the leaderboard: {}",
        board.text
    );
    // The match says why: its rating info tells it was aborted.
    let events = player_events(&app, &farmer.key, 0, 0).await;
    let over = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "match_over" && e["match_id"] == last.as_str())
        .expect("a match_over event")
        .clone();
    assert_eq!(over["rating"]["unrated"], "aborted", "{over}");
    assert_eq!(over["rating"]["before"], over["rating"]["after"]);
    let h = history(&app, &farmer.id).await;
    assert!(h.iter().all(|e| e["unrated"] == "aborted"), "{h:?}");
}

/// Results against the same opponent count 3 times a day: the fourth
/// match, played like the others, leaves both ratings as they were.
async fn the_same_opponent_counts_three_times_a_day(backend: Backend) {
    let (_, app) = fair_app(backend).await;
    let a = register_at(&app, "winner", "192.0.2.1").await;
    let b = register_at(&app, "loser", "192.0.2.2").await;
    let mut ratings = Vec::new();
    for _ in 0..4 {
        let id = rated_challenge(&app, &a, &b).await;
        one_hand_then_resign(&app, &id, &[&a.key, &b.key], &b.key).await;
        let p = profile(&app, &a.id).await;
        ratings.push(p["ratings"][0]["rating"].as_f64().unwrap());
        assert_eq!(p["ratings"][0]["games"], ratings.len().min(3));
    }
    // Each of the first three moved the rating (won or lost, by how the
    // played hand went); the fourth did not.
    assert!(
        ratings[0] != 1500.0 && ratings[1] != ratings[0] && ratings[2] != ratings[1],
        "{ratings:?}"
    );
    assert_eq!(ratings[3], ratings[2], "the fourth did not count");
    for who in [&a, &b] {
        let h = history(&app, &who.id).await;
        assert_eq!(h.len(), 4);
        assert_eq!(h[0]["unrated"], "repeated_opponent", "{}", h[0]);
        assert_eq!(h[0]["rating_before"], h[0]["rating_after"]);
        assert!(h[1..].iter().all(|e| e.get("unrated").is_none()));
        assert_eq!(profile(&app, &who.id).await["matches_played"], 4);
    }
}

/// An established rating (deviation at most 110) is not moved by a
/// provisional opponent; the provisional player's is.
async fn a_provisional_opponent_leaves_an_established_rating_alone(backend: Backend) {
    let (lobby, app) = fair_app(backend).await;
    let a = register_at(&app, "established", "192.0.2.1").await;
    let b = register_at(&app, "newcomer", "192.0.2.2").await;
    // Make A established: 30 games, deviation 60, at 1600.
    let snap = lobby
        .store()
        .get(Doc::Player, &a.id)
        .await
        .unwrap()
        .unwrap();
    let mut rec: PlayerRecord = decode(&snap.state).unwrap();
    let standing = rec.ratings.entry("pairs".into()).or_default();
    standing.rating.rating = 1600.0;
    standing.rating.deviation = 60.0;
    standing.games = 30;
    let state = encode(&rec).unwrap();
    assert!(
        lobby
            .store()
            .replace(Doc::Player, &a.id, snap.version, &state, None)
            .await
            .unwrap()
    );
    let id = rated_challenge(&app, &a, &b).await;
    one_hand_then_resign(&app, &id, &[&a.key, &b.key], &b.key).await;
    let pa = profile(&app, &a.id).await;
    // The opposing pair (the newcomer and a house bot) is one opponent:
    // with the newcomer left out, so is the pair.
    assert_eq!(pa["ratings"][0]["rating"], 1600.0, "{pa}");
    assert_eq!(pa["ratings"][0]["deviation"], 60.0, "{pa}");
    assert_eq!(pa["ratings"][0]["games"], 30);
    assert_eq!(
        history(&app, &a.id).await[0]["unrated"],
        "provisional_opponent"
    );
    // The newcomer is rated (won or lost, by how the played hand went).
    let pb = profile(&app, &b.id).await;
    assert_eq!(pb["ratings"][0]["games"], 1, "{pb}");
    assert_ne!(pb["ratings"][0]["rating"], 1500.0, "{pb}");
    assert!(history(&app, &b.id).await[0].get("unrated").is_none());
}

/// Accounts registered from one address feed each other's ratings 3
/// times a day in all: the farm whose puppets play a hand before
/// resigning, run from the farmer's own address, stops after 3.
async fn players_of_one_address_count_three_times_a_day_in_all(backend: Backend) {
    let (_, app) = fair_app(backend).await;
    let farmer = register_at(&app, "farmer", "203.0.113.9").await;
    let mut ratings = Vec::new();
    for round in 0..5 {
        let puppet = register_at(&app, &format!("puppet {round}"), "203.0.113.9").await;
        let id = rated_challenge(&app, &farmer, &puppet).await;
        one_hand_then_resign(&app, &id, &[&farmer.key, &puppet.key], &puppet.key).await;
        let p = profile(&app, &farmer.id).await;
        ratings.push(p["ratings"][0]["rating"].as_f64().unwrap());
        assert_eq!(p["ratings"][0]["games"], ratings.len().min(3), "{p}");
    }
    assert_eq!(ratings[3], ratings[2], "{ratings:?}");
    assert_eq!(ratings[4], ratings[2], "{ratings:?}");
    let h = history(&app, &farmer.id).await;
    assert_eq!(h[0]["unrated"], "same_address", "{}", h[0]);
    assert_eq!(h[1]["unrated"], "same_address", "{}", h[1]);
    // An opponent from elsewhere still counts.
    let other = register_at(&app, "elsewhere", "198.51.100.77").await;
    let id = rated_challenge(&app, &farmer, &other).await;
    one_hand_then_resign(&app, &id, &[&farmer.key, &other.key], &other.key).await;
    let p = profile(&app, &farmer.id).await;
    assert_eq!(p["ratings"][0]["games"], 4, "{p}");
}

both_stores!(
    players_of_one_address_count_three_times_a_day_in_all,
    the_farm_of_fresh_accounts_resigning_at_once_earns_nothing,
    the_same_opponent_counts_three_times_a_day,
    a_provisional_opponent_leaves_an_established_rating_alone,
    a_casual_match_finished_without_the_lobby_is_counted_once_by_the_scheduler,
);

/// A casual match finished by an instance that never tells the lobby (as
/// one that dies between its commit and counting) is counted by the
/// schedulers of the instances that do, with nobody reading, once,
/// however many of them race and however often it is settled again.
async fn a_casual_match_finished_without_the_lobby_is_counted_once_by_the_scheduler(
    backend: Backend,
) {
    let matches = store_for(backend, None).await;
    let players = lobby_store_for(backend).await;
    let lobby = Lobby::new(
        Service::new(Arc::clone(&matches), Limits::default()).unwrap(),
        Arc::clone(&players),
    );
    let (p, created) = crate::ratings::casual_match(&lobby).await;
    let id = created.match_id;
    let token = created.tokens[0].token.clone();
    // No scheduler on A and B: only C and D settle what is due.
    let mut quiet = unlimited();
    quiet.scheduler.enabled = false;
    // A: the same matches, no lobby (its hooks tell no one).
    let bare = Service::new(Arc::clone(&matches), Limits::default()).unwrap();
    let a = crate::app::spawn_service(
        Lobby::new(
            bare,
            Arc::new(botifarra::lobby::store::MemoryLobbyStore::new()),
        ),
        quiet.clone(),
    );
    a.finish_match(&id, &token).await;
    let b = spawn_service(lobby.clone(), quiet);
    assert_eq!(
        profile(&b, &p.player.id).await["matches_played"],
        0,
        "lost so far"
    );
    // C and D (the same stores, as two more instances) race to settle it.
    let other = |lobby: Lobby| spawn_service(lobby, unlimited());
    let _c = other(lobby.clone());
    let _d = other(Lobby::new(
        Service::new(Arc::clone(&matches), Limits::default()).unwrap(),
        Arc::clone(&players),
    ));
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    while profile(&b, &p.player.id).await["matches_played"] == 0 {
        assert!(tokio::time::Instant::now() < until, "never settled");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    for _ in 0..3 {
        let path = format!("/v1/matches/{id}");
        assert_eq!(b.get(&path, None).await.status, StatusCode::OK);
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert_eq!(profile(&b, &p.player.id).await["matches_played"], 1);
    }
    lobby.apply_match_ratings(&id).await.unwrap();
    assert_eq!(profile(&b, &p.player.id).await["matches_played"], 1);
}

/// The farm again, each puppet playing one hand to its end before
/// resigning the rest (so that the match is not aborted): what the farmer
/// gains over 40 rounds while its own rating is provisional (new
/// opponents move it as Glicko-2 says), bounded well below the issue's
/// figure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_farm_of_puppets_playing_one_hand_is_measured() {
    let (_, app) = fair_app(Backend::Memory).await;
    let farmer = register_at(&app, "farmer", "192.0.2.1").await;
    let mut figures = Vec::new();
    for round in 0..40 {
        // Each puppet from an address of its own (else the same-address
        // rule stops the farm after 3: see below).
        let addr = format!("198.51.100.{}", round + 1);
        let puppet = register_at(&app, &format!("puppet {round}"), &addr).await;
        let id = rated_challenge(&app, &farmer, &puppet).await;
        one_hand_then_resign(&app, &id, &[&farmer.key, &puppet.key], &puppet.key).await;
        let p = profile(&app, &farmer.id).await;
        figures.push(p["ratings"][0]["rating"].as_f64().unwrap_or(1500.0));
    }
    // Measured: 1560 after the first round, 1840 at the peak (25 straight
    // wins), 1696 after the 40th; the farm reached 2141.
    let peak = figures.iter().copied().fold(1500.0, f64::max);
    assert!(peak < 2000.0, "{figures:?}");
}
