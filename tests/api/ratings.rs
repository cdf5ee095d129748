//! Rated matches: ratings applied at the end as Glicko-2 computes them,
//! exactly once (two instances racing on the last move, a retry, a read),
//! shown in profiles, histories, the leaderboard and the match_over event.

use std::sync::Arc;

use botifarra::lobby::records::PlayerKind;
use botifarra::lobby::{Lobby, NewPlayer};
use botifarra::rating::{DEFAULT_TAU, Game, Rating, house_anchor, rated_rules, side_opponent};
use botifarra::rules::Variant;
use botifarra::service::{Created, Limits, NewMatch, NewSeat, SeatKind, Service};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_service, store_for, unlimited};
use crate::backends::all_stores;
use crate::lobby_client::player_events;

/// A match service and lobby over `backend` for both.
async fn service(backend: Backend) -> Lobby {
    crate::app::lobby_for(backend).await
}

/// A registered player: id and key.
pub(crate) struct Seated {
    pub(crate) id: String,
    pub(crate) key: String,
    /// The seat token of its seat in the rated match (empty elsewhere).
    pub(crate) token: String,
}

/// Registers `n` players and creates a rated match of `variant` with them
/// at the first `n` seats and `random` house bots at the others.
pub(crate) async fn rated_match(svc: &Lobby, variant: Variant, n: usize) -> (String, Vec<Seated>) {
    rated_match_with(svc, variant, n, NewMatch::default()).await
}

/// [`rated_match`] with the clock fields of `clock`.
pub(crate) async fn rated_match_with(
    svc: &Lobby,
    variant: Variant,
    n: usize,
    clock: NewMatch,
) -> (String, Vec<Seated>) {
    let seats = variant.table().seats as usize;
    let mut players = Vec::new();
    for i in 0..n {
        let r = svc
            .register(NewPlayer {
                name: format!("rated {i}"),
                kind: PlayerKind::Bot,
            })
            .await
            .unwrap();
        players.push(Seated {
            id: r.player.id,
            key: r.api_key,
            token: String::new(),
        });
    }
    let new_seats = (0..seats)
        .map(|i| match players.get(i) {
            Some(p) => NewSeat {
                player: Some(p.id.clone()),
                ..NewSeat::default()
            },
            None => NewSeat {
                kind: SeatKind::Bot,
                bot: Some("random".into()),
                ..NewSeat::default()
            },
        })
        .collect();
    let created = svc
        .service()
        .create(NewMatch {
            rules: rated_rules(variant),
            seats: Some(new_seats),
            auto_deal: true,
            rated: true,
            move_timeout_ms: clock.move_timeout_ms,
            on_timeout: clock.on_timeout,
            ..NewMatch::default()
        })
        .await
        .unwrap();
    for t in created.tokens {
        if let Some(p) = players.get_mut(t.seat as usize) {
            p.token = t.token;
        }
    }
    (created.match_id, players)
}

/// The match's spectator view.
async fn view(app: &TestApp, id: &str) -> Value {
    let r = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json
}

/// Posts the first legal action of the seat to act, through every app at
/// once, guarded by the version: exactly one of them applies it. Returns
/// how many did (0 once the match is over).
async fn race_step(apps: &[&TestApp], id: &str, players: &[Seated]) -> usize {
    let v = view(apps[0], id).await;
    if v["phase"] == "match_over" {
        return 0;
    }
    let turn = v["turn"].as_u64().expect("a seat to act") as usize;
    let key = &players[turn].key;
    let mine = apps[0].get(&format!("/v1/matches/{id}"), Some(key)).await;
    let action = mine.json["legal_actions"][0].clone();
    let version = mine.json["version"].to_string();
    let path = format!("/v1/matches/{id}/actions");
    let headers = [("If-Match", version.as_str())];
    let posts = apps.iter().map(|app| {
        app.send(
            Method::POST,
            &path,
            Some(key),
            Some(action.clone()),
            &headers,
        )
    });
    let replies = futures_util::future::join_all(posts).await;
    let mut applied = 0;
    for r in replies {
        if r.status == StatusCode::OK {
            applied += 1;
        } else {
            assert_eq!(r.json["code"], "version_conflict", "{}", r.text);
        }
    }
    applied
}

/// Plays a match to the end through `apps`; every move is applied once.
async fn play_out(apps: &[&TestApp], id: &str, players: &[Seated]) {
    for _ in 0..10_000 {
        match race_step(apps, id, players).await {
            0 => return,
            1 => {}
            n => panic!("one move applied {n} times"),
        }
    }
    panic!("match {id} did not end");
}

/// What Glicko-2 makes of a new player's rating for seat `seat` of a
/// finished pairs match whose seats started at `before`.
fn expected_pairs(before: &[Rating], winner: &Value, seat: usize) -> Rating {
    let opp: Vec<&Rating> = (0..4)
        .filter(|s| s % 2 != seat % 2)
        .map(|s| &before[s])
        .collect();
    let score = match winner.as_u64() {
        Some(side) if side as usize == seat % 2 => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    before[seat].update(
        &[Game {
            opponent: side_opponent(opp[0], opp[1]),
            score,
        }],
        DEFAULT_TAU,
    )
}

/// The ratings a rated pairs match of [`rated_match`] records: three new
/// players and the `random` house bot at seat 3.
fn pairs_before() -> [Rating; 4] {
    [
        Rating::default(),
        Rating::default(),
        Rating::default(),
        house_anchor("random").unwrap(),
    ]
}

/// Checks that each player of a rated pairs match (three new players and
/// the `random` house bot at seat 3) that ended as `end` has the rating
/// Glicko-2 gives, after one game; returns their ratings.
async fn pairs_rated_once(app: &TestApp, players: &[Seated], end: &Value) -> Vec<f64> {
    let before = pairs_before();
    let mut ratings = Vec::new();
    for (seat, p) in players.iter().enumerate() {
        let want = expected_pairs(&before, &end["winner"], seat);
        let profile = app.get(&format!("/v1/players/{}", p.id), None).await.json;
        let s = standing(&profile, "pairs");
        let rating = s["rating"].as_f64().unwrap();
        assert!(close(rating, want.rating), "{s} vs {want:?}");
        assert_eq!(s["games"], 1);
        ratings.push(rating);
    }
    ratings
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// The standing in `pool` of a profile (`ratings` array).
fn standing<'a>(profile: &'a Value, pool: &str) -> &'a Value {
    profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["pool"] == pool)
        .unwrap_or_else(|| panic!("no {pool} rating in {profile}"))
}

async fn a_rated_pairs_match_moves_ratings_as_glicko2_computes(backend: Backend) {
    let svc = service(backend).await;
    let (id, players) = rated_match(&svc, Variant::Pairs, 3).await;
    let app = spawn_service(svc, unlimited());
    play_out(&[&app], &id, &players).await;
    let end = view(&app, &id).await;
    assert_eq!(end["phase"], "match_over");
    let before = pairs_before();

    let mut board_ids = Vec::new();
    for (seat, p) in players.iter().enumerate() {
        let want = expected_pairs(&before, &end["winner"], seat);
        let profile = app.get(&format!("/v1/players/{}", p.id), None).await.json;
        let s = standing(&profile, "pairs");
        assert!(
            close(s["rating"].as_f64().unwrap(), want.rating),
            "{s} vs {want:?}"
        );
        assert!(close(s["deviation"].as_f64().unwrap(), want.deviation));
        assert!(close(s["volatility"].as_f64().unwrap(), want.volatility));
        assert_eq!(s["games"], 1);
        assert_eq!(s["provisional"], want.deviation > 110.0);
        assert_eq!(profile["matches_played"], 1);
        let me = app.get("/v1/players/me", Some(&p.key)).await.json;
        assert_eq!(standing(&me, "pairs"), s, "the own profile shows the same");
        assert_ne!(want.rating, 1500.0, "a decided match moves the rating");

        let hist = app
            .get(&format!("/v1/players/{}/ratings?variant=pairs", p.id), None)
            .await;
        assert_eq!(hist.status, StatusCode::OK, "{}", hist.text);
        let pools = hist.json["pools"].as_array().unwrap();
        assert_eq!(pools.len(), 1);
        let entries = pools[0]["history"].as_array().unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0]["match_id"], id.as_str());
        assert_eq!(entries[0]["seat"], seat);
        assert!(close(entries[0]["rating_before"].as_f64().unwrap(), 1500.0));
        assert!(close(
            entries[0]["rating_after"].as_f64().unwrap(),
            want.rating
        ));
        let other = app
            .get(
                &format!("/v1/players/{}/ratings?variant=abarrotada", p.id),
                None,
            )
            .await;
        assert_eq!(other.json["pools"], json!([]), "no abarrotada matches");

        let events = player_events(&app, &p.key, 0, 0).await;
        let over = events["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == "match_over")
            .expect("a match_over event");
        assert_eq!(over["rating"]["pool"], "pairs");
        assert!(close(over["rating"]["before"].as_f64().unwrap(), 1500.0));
        assert!(close(
            over["rating"]["after"].as_f64().unwrap(),
            want.rating
        ));
        assert!(close(
            over["rating"]["deviation"].as_f64().unwrap(),
            want.deviation
        ));
        board_ids.push((want.rating, p.id.clone()));
    }

    // The leaderboard: these players (and whoever else the shared store
    // holds), highest first, with the anchors among them.
    let mut rows = Vec::new();
    let mut after: Option<String> = None;
    for _ in 0..1000 {
        let path = match &after {
            Some(a) => format!("/v1/leaderboard?variant=pairs&limit=7&after={a}"),
            None => "/v1/leaderboard?variant=pairs&limit=7".to_string(),
        };
        let r = app.get(&path, None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert!(r.json["players"].as_array().unwrap().len() <= 7);
        rows.extend(r.json["players"].as_array().unwrap().iter().cloned());
        match r.json["next"].as_str() {
            Some(n) => after = Some(n.to_string()),
            None => break,
        }
    }
    let ratings: Vec<f64> = rows.iter().map(|r| r["rating"].as_f64().unwrap()).collect();
    assert!(
        ratings.windows(2).all(|w| w[0] >= w[1] - 0.01),
        "{ratings:?}"
    );
    for (rating, pid) in &board_ids {
        let found: Vec<&Value> = rows
            .iter()
            .filter(|r| r["player_id"] == pid.as_str())
            .collect();
        assert_eq!(found.len(), 1, "{pid} listed once");
        assert!(close(found[0]["rating"].as_f64().unwrap(), *rating));
        assert_eq!(found[0]["anchor"], false);
        assert_eq!(found[0]["games"], 1);
    }
    let anchors: Vec<&Value> = rows.iter().filter(|r| r["anchor"] == true).collect();
    assert_eq!(anchors.len(), botifarra::bots::NAMES.len());
    let expert = anchors
        .iter()
        .find(|r| r["player_id"] == "house-expert")
        .unwrap();
    assert_eq!(expert["rating"], 1850.0);
    assert_eq!(expert["games"], 0);

    for bad in [
        "/v1/leaderboard",
        "/v1/leaderboard?variant=chess",
        "/v1/leaderboard?variant=pairs&limit=0",
        "/v1/leaderboard?variant=pairs&limit=101",
        "/v1/leaderboard?variant=pairs&after=zzz",
        "/v1/players/p0123456789abcdef01234567/ratings?variant=chess",
    ] {
        let r = app.get(bad, None).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.text);
        assert_eq!(r.json["code"], "invalid_request", "{bad}");
    }
    let r = app
        .get("/v1/players/p0123456789abcdef01234567/ratings", None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
}

async fn a_rated_individual_match_rates_against_every_other_seat(backend: Backend) {
    let svc = service(backend).await;
    let (id, players) = rated_match(&svc, Variant::Abarrotada3, 2).await;
    let app = spawn_service(svc, unlimited());
    play_out(&[&app], &id, &players).await;
    let end = view(&app, &id).await;
    let scores: Vec<i64> = end["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    let before = [
        Rating::default(),
        Rating::default(),
        house_anchor("random").unwrap(),
    ];
    for (seat, p) in players.iter().enumerate() {
        let games: Vec<Game> = (0..3)
            .filter(|&o| o != seat)
            .map(|o| Game {
                opponent: before[o],
                score: match scores[seat].cmp(&scores[o]) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                },
            })
            .collect();
        let want = before[seat].update(&games, DEFAULT_TAU);
        let profile = app.get(&format!("/v1/players/{}", p.id), None).await.json;
        let s = standing(&profile, "abarrotada3");
        assert!(
            close(s["rating"].as_f64().unwrap(), want.rating),
            "{s} vs {want:?}"
        );
        assert!(close(s["deviation"].as_f64().unwrap(), want.deviation));
        assert_eq!(s["games"], 1);
    }
}

async fn a_resignation_in_a_rated_match_counts(backend: Backend) {
    let svc = service(backend).await;
    let (id, players) = rated_match(&svc, Variant::Pairs, 3).await;
    let app = spawn_service(svc, unlimited());
    // The first hand is played to its end (a match resigned before that is
    // aborted: see `fair_play.rs`).
    for _ in 0..1000 {
        let v = view(&app, &id).await;
        if !v["hands"].as_array().is_none_or(Vec::is_empty) {
            break;
        }
        race_step(&[&app], &id, &players).await;
    }
    // Then seat 0 forfeits every hand: the other side reaches the target.
    for _ in 0..100 {
        let v = view(&app, &id).await;
        if v["phase"] == "match_over" {
            break;
        }
        let r = app
            .post(
                &format!("/v1/matches/{id}/resign"),
                Some(&players[0].key),
                json!({}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let end = view(&app, &id).await;
    assert_eq!(end["phase"], "match_over");
    // The first hand may have brought the resigning side close enough to
    // win it; whichever side won, its players gained and the others lost.
    let winner = end["winner"].as_u64().expect("a side won") as usize;
    for (seat, rating) in pairs_rated_once(&app, &players, &end)
        .await
        .iter()
        .enumerate()
    {
        let moved = rating - 1500.0;
        assert!(
            if seat % 2 == winner {
                moved > 0.0
            } else {
                moved < 0.0
            },
            "seat {seat}: {moved}"
        );
    }
}

/// Registers a player and creates a casual match (the rated pool's rules,
/// not rated) with it at seat 0 and `random` house bots at the others.
pub async fn casual_match(svc: &Lobby) -> (botifarra::lobby::Registered, Created) {
    let p = svc
        .register(NewPlayer {
            name: "casual".into(),
            kind: PlayerKind::Human,
        })
        .await
        .unwrap();
    let seats = (0..4)
        .map(|i| NewSeat {
            kind: if i == 0 {
                SeatKind::Remote
            } else {
                SeatKind::Bot
            },
            player: (i == 0).then(|| p.player.id.clone()),
            bot: (i > 0).then(|| "random".to_string()),
            ..NewSeat::default()
        })
        .collect();
    let created = svc
        .service()
        .create(NewMatch {
            rules: rated_rules(Variant::Pairs),
            seats: Some(seats),
            auto_deal: true,
            ..NewMatch::default()
        })
        .await
        .unwrap();
    (p, created)
}

async fn a_casual_match_leaves_ratings_alone(backend: Backend) {
    let svc = service(backend).await;
    let (p, created) = casual_match(&svc).await;
    let app = spawn_service(svc, unlimited());
    let players = [Seated {
        id: p.player.id.clone(),
        key: p.api_key.clone(),
        token: String::new(),
    }];
    play_out(&[&app], &created.match_id, &players).await;
    let profile = app
        .get(&format!("/v1/players/{}", p.player.id), None)
        .await
        .json;
    assert_eq!(profile["matches_played"], 1);
    assert_eq!(profile["ratings"], json!([]));
    let events = player_events(&app, &p.api_key, 0, 0).await;
    let over = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "match_over")
        .expect("a match_over event")
        .clone();
    assert!(over.get("rating").is_none(), "{over}");
}

/// A match whose every hand is forfeited on the clock (nobody played a
/// hand to its end) is aborted: unrated for every seat, counted as
/// played once, its history entry saying why.
async fn a_match_forfeited_on_the_clock_from_the_start_is_aborted(backend: Backend) {
    let svc = service(backend).await;
    let clock = NewMatch {
        move_timeout_ms: Some(100),
        on_timeout: botifarra::service::OnTimeout::Forfeit,
        ..NewMatch::default()
    };
    let (id, players) = rated_match_with(&svc, Variant::Pairs, 3, clock).await;
    let app = spawn_service(svc, unlimited());
    // Nobody plays: every hand is forfeited by the seat whose clock runs out.
    let mut end = view(&app, &id).await;
    for _ in 0..200 {
        if end["phase"] == "match_over" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(60)).await;
        end = view(&app, &id).await;
    }
    assert_eq!(end["phase"], "match_over", "{end}");
    let hands = end["hands"].as_array().expect("the hands' results");
    assert!(!hands.is_empty());
    assert!(
        hands.iter().all(|h| !h["forfeit"].is_null()),
        "every hand was forfeited: {hands:?}"
    );
    for p in &players {
        // The write that ended the match settles it just after it is
        // stored (or the scheduler does): wait for that, not for a read.
        let path = format!("/v1/players/{}", p.id);
        let until = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut profile = app.get(&path, None).await.json;
        while profile["matches_played"] == 0 && tokio::time::Instant::now() < until {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            profile = app.get(&path, None).await.json;
        }
        assert_eq!(profile["ratings"], json!([]), "{profile}");
        assert_eq!(profile["matches_played"], 1);
        let (games, entries, rating) = games_and_history(&app, &p.id).await;
        assert_eq!((games, entries, rating), (0, 1, 1500.0));
        let page = app
            .get(&format!("/v1/players/{}/ratings", p.id), None)
            .await;
        assert_eq!(page.json["pools"][0]["history"][0]["unrated"], "aborted");
    }
}

all_stores!(
    a_match_forfeited_on_the_clock_from_the_start_is_aborted,
    a_rated_pairs_match_moves_ratings_as_glicko2_computes,
    a_rated_individual_match_rates_against_every_other_seat,
    a_resignation_in_a_rated_match_counts,
    a_casual_match_leaves_ratings_alone,
);

/// A player's games, history length and rating in its one pool.
async fn games_and_history(app: &TestApp, id: &str) -> (u64, usize, f64) {
    let r = app.get(&format!("/v1/players/{id}/ratings"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let pool = &r.json["pools"][0];
    (
        pool["games"].as_u64().unwrap(),
        pool["history"].as_array().unwrap().len(),
        pool["rating"].as_f64().unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_race_every_move_of_a_rated_match_and_rate_it_once() {
    let a_svc = service(Backend::Redis).await;
    let b_svc = service(Backend::Redis).await;
    let (id, players) = rated_match(&a_svc, Variant::Pairs, 3).await;
    let a = spawn_service(a_svc, unlimited());
    let b = spawn_service(b_svc, unlimited());
    // Every move, the last among them, is posted to both at once.
    play_out(&[&a, &b], &id, &players).await;
    let end = view(&b, &id).await;
    assert_eq!(end["phase"], "match_over");
    let before = pairs_before();
    let mut first = Vec::new();
    for (seat, p) in players.iter().enumerate() {
        let want = expected_pairs(&before, &end["winner"], seat);
        let (games, entries, rating) = games_and_history(&a, &p.id).await;
        assert_eq!((games, entries), (1, 1), "seat {seat} rated once");
        assert!(close(rating, want.rating));
        first.push(rating);
        let events = player_events(&a, &p.key, 0, 0).await;
        let overs = events["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "match_over")
            .count();
        assert_eq!(overs, 1, "one match_over event: one commit ended the match");
    }

    // Reads of the finished match through either instance, and applying
    // it again through each, change nothing.
    for app in [&a, &b] {
        view(app, &id).await;
    }
    let path = format!("/v1/matches/{id}");
    let again =
        futures_util::future::join_all([&a, &b].map(|app| app.get(&path, Some(&players[1].key))))
            .await;
    assert!(again.iter().all(|r| r.status == StatusCode::OK));
    for (p, rating) in players.iter().zip(&first) {
        let (games, entries, now) = games_and_history(&b, &p.id).await;
        assert_eq!((games, entries), (1, 1));
        assert_eq!(now, *rating);
        let profile = b.get(&format!("/v1/players/{}", p.id), None).await.json;
        assert_eq!(profile["matches_played"], 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn applying_a_rated_match_again_changes_nothing() {
    for backend in [Backend::Memory, Backend::Redis] {
        let svc = service(backend).await;
        let (id, players) = rated_match(&svc, Variant::Pairs, 2).await;
        let app = spawn_service(svc.clone(), unlimited());
        play_out(&[&app], &id, &players).await;
        let (games, entries, rating) = games_and_history(&app, &players[0].id).await;
        assert_eq!((games, entries), (1, 1));
        let told = svc.apply_match_ratings(&id).await.unwrap();
        let again =
            futures_util::future::join_all((0..4).map(|_| svc.apply_match_ratings(&id))).await;
        for changes in again {
            assert_eq!(changes.unwrap(), told, "the same changes are told");
        }
        assert!(close(told[0].as_ref().unwrap().after, rating));
        assert!(
            told[2].is_none() && told[3].is_none(),
            "house bots never move"
        );
        for p in &players {
            let (games, entries, _) = games_and_history(&app, &p.id).await;
            assert_eq!((games, entries), (1, 1), "{backend:?}");
        }
        assert_eq!(games_and_history(&app, &players[0].id).await.2, rating);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scheduler_applies_a_rated_match_its_committing_instance_did_not() {
    // B keeps the players; A commits every move but writes players
    // elsewhere (its own memory), as an instance that dies after the last
    // commit and before rating leaves them. Both share one match store.
    let matches = store_for(Backend::Redis, None).await;
    let b_svc = Lobby::new(
        Service::new(Arc::clone(&matches), Limits::default()).unwrap(),
        crate::app::lobby_store_for(Backend::Redis).await,
    );
    let a_svc = Service::new(Arc::clone(&matches), Limits::default()).unwrap();
    let (id, players) = rated_match(&b_svc, Variant::Pairs, 2).await;
    let early = b_svc.apply_match_ratings(&id).await.unwrap();
    assert!(
        early.iter().all(Option::is_none),
        "not over: nothing applied"
    );
    let a_lobby = Lobby::new(
        a_svc,
        Arc::new(botifarra::lobby::store::MemoryLobbyStore::new()),
    );
    // Neither A nor this B runs a scheduler: the one started below does.
    let mut quiet = unlimited();
    quiet.scheduler.enabled = false;
    let a = spawn_service(a_lobby, quiet.clone());
    let b = spawn_service(b_svc.clone(), quiet);

    // Through A, with the seat tokens (A knows no players).
    let by_token: Vec<Seated> = players
        .iter()
        .map(|p| Seated {
            id: p.id.clone(),
            key: p.token.clone(),
            token: p.token.clone(),
        })
        .collect();
    play_out(&[&a], &id, &by_token).await;
    for p in &players {
        let profile = b.get(&format!("/v1/players/{}", p.id), None).await.json;
        assert_eq!(profile["ratings"], json!([]), "A rated no one here");
    }

    // B's scheduler, with nobody reading, applies what is missing, once.
    let _scheduler = spawn_service(b_svc.clone(), unlimited());
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    let rated = |id: String| {
        let b = &b;
        async move { b.get(&format!("/v1/players/{id}"), None).await.json["ratings"] != json!([]) }
    };
    while !rated(players[0].id.clone()).await {
        assert!(tokio::time::Instant::now() < until, "never applied");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let end = view(&b, &id).await;
    assert_eq!(end["phase"], "match_over");
    let random = house_anchor("random").unwrap();
    let before = [Rating::default(), Rating::default(), random, random];
    for (seat, p) in players.iter().enumerate() {
        let want = expected_pairs(&before, &end["winner"], seat);
        let (games, entries, rating) = games_and_history(&b, &p.id).await;
        assert_eq!((games, entries), (1, 1));
        assert!(close(rating, want.rating), "{rating} vs {want:?}");
    }
    view(&b, &id).await;
    let told = b_svc.apply_match_ratings(&id).await.unwrap();
    assert!(close(told[1].as_ref().unwrap().before, 1500.0));
    for p in &players {
        assert_eq!(games_and_history(&b, &p.id).await.0, 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_applied_list_marks_an_applied_match_and_the_horizon_covers_dropped_ones() {
    use botifarra::lobby::records::{PlayerRecord, decode, encode};
    use botifarra::lobby::store::Doc;

    let svc = service(Backend::Memory).await;
    let (id, players) = rated_match(&svc, Variant::Pairs, 2).await;
    let app = spawn_service(svc.clone(), unlimited());
    play_out(&[&app], &id, &players).await;
    let pid = &players[0].id;
    let store = svc.store();
    let snap = store.get(Doc::Player, pid).await.unwrap().unwrap();
    let applied: PlayerRecord = decode(&snap.state).unwrap();
    let created_ms = applied.ratings["pairs"].applied[0].1;
    let first = svc.apply_match_ratings(&id).await.unwrap();

    // The match dropped from the applied list, behind the horizon: still
    // applied, and its change still told from the history.
    let mut dropped = applied.clone();
    let standing = dropped.ratings.get_mut("pairs").unwrap();
    standing.applied.clear();
    standing.horizon_ms = created_ms;
    let state = encode(&dropped).unwrap();
    assert!(
        store
            .replace(Doc::Player, pid, snap.version, &state, None)
            .await
            .unwrap()
    );
    let told = svc.apply_match_ratings(&id).await.unwrap();
    assert_eq!(told, first);
    let (games, entries, _) = games_and_history(&app, pid).await;
    assert_eq!((games, entries), (1, 1), "not applied again");

    // Without either mark the match would be applied again: the marks are
    // what keeps it from counting twice.
    let snap = store.get(Doc::Player, pid).await.unwrap().unwrap();
    let mut unmarked: PlayerRecord = decode(&snap.state).unwrap();
    unmarked.ratings.get_mut("pairs").unwrap().horizon_ms = created_ms - 1;
    let state = encode(&unmarked).unwrap();
    assert!(
        store
            .replace(Doc::Player, pid, snap.version, &state, None)
            .await
            .unwrap()
    );
    let told = svc.apply_match_ratings(&id).await.unwrap();
    assert!(told[0].is_some());
    let (games, entries, _) = games_and_history(&app, pid).await;
    assert_eq!((games, entries), (2, 1), "one history entry per match");
}
