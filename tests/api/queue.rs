//! The matchmaking queue: 200 bot players queueing at once (on memory, and
//! through two instances sharing one Redis or one Redis Cluster),
//! house-bot filling, leaving,
//! expiry, one waiting ticket per player, and bad input.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_lobby_app};
use crate::lobby_client::{PlayerKey, play_to_end, player_events, register};

async fn enqueue(app: &TestApp, key: &str, body: Value) -> crate::app::Reply {
    app.post("/v1/queue", Some(key), body).await
}

async fn ticket(app: &TestApp, key: &str, id: &str, wait_ms: u64) -> Value {
    let r = app
        .get(&format!("/v1/queue/{id}?wait_ms={wait_ms}"), Some(key))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json
}

async fn leave(app: &TestApp, key: &str, id: &str) -> crate::app::Reply {
    app.send(
        Method::DELETE,
        &format!("/v1/queue/{id}"),
        Some(key),
        None,
        &[],
    )
    .await
}

/// Queues `leader` with `partner` as a party both keys confirm: the
/// leader proposes, the partner accepts; answers the acceptance (the
/// pair's ticket).
pub async fn party_queue(
    app: &TestApp,
    leader: &str,
    partner: &PlayerKey,
    mut body: Value,
) -> crate::app::Reply {
    body["partner"] = json!(partner.id);
    let r = app.post("/v1/queue/parties", Some(leader), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["party_id"].as_str().unwrap();
    app.post(
        &format!("/v1/queue/parties/{id}/accept"),
        Some(&partner.key),
        json!({}),
    )
    .await
}

/// Waits until ticket `id` stops waiting; returns it.
async fn settled(app: &TestApp, key: &str, id: &str) -> Value {
    for _ in 0..20 {
        let t = ticket(app, key, id, 5000).await;
        if t["status"] != "waiting" {
            return t;
        }
    }
    panic!("ticket {id} still waits");
}

/// Every seat of a match played to the end, each by its own player's key.
async fn play_out(app: &TestApp, match_id: &str, keys: Vec<String>) {
    let tasks: Vec<_> = keys
        .into_iter()
        .map(|k| {
            let app = TestApp::external(app.base.clone());
            let id = match_id.to_string();
            tokio::spawn(async move { play_to_end(&app, &id, &k).await })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
}

/// 200 bot players on `apps`: 100 for pairs (20 pair tickets, 60 alone),
/// 52 for abarrotada, 48 for abarrotada3, all queueing at once, rated.
async fn two_hundred_players_queue_at_once(apps: &[TestApp]) {
    let mut players = Vec::new();
    for i in 0..200 {
        players.push(register(&apps[i % apps.len()], &format!("q{i}"), "bot").await);
    }
    // (ticket holder, partner, variant)
    let mut plan: Vec<(usize, Option<usize>, &str)> = Vec::new();
    for i in 0..20 {
        plan.push((2 * i, Some(2 * i + 1), "pairs"));
    }
    plan.extend((40..100).map(|i| (i, None, "pairs")));
    plan.extend((100..152).map(|i| (i, None, "abarrotada")));
    plan.extend((152..200).map(|i| (i, None, "abarrotada3")));
    let tasks: Vec<_> = plan
        .iter()
        .enumerate()
        .map(|(n, &(holder, partner, variant))| {
            let app = TestApp::external(apps[n % apps.len()].base.clone());
            let key = players[holder].key.clone();
            let partner = partner.map(|p| players[p].clone());
            tokio::spawn(async move {
                let body = json!({"variant": variant});
                let r = match partner {
                    Some(p) => party_queue(&app, &key, &p, body).await,
                    None => enqueue(&app, &key, body).await,
                };
                assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
                assert_eq!(r.json["rated"], true);
                r.json["ticket_id"].as_str().unwrap().to_string()
            })
        })
        .collect();
    let mut tickets = Vec::new();
    for t in tasks {
        tickets.push(t.await.unwrap());
    }
    // Every ticket is matched; every player has exactly one seat.
    let mut seat_of: HashMap<String, (String, u64)> = HashMap::new();
    let mut matches: HashMap<String, &str> = HashMap::new();
    for (n, (&(holder, partner, variant), id)) in plan.iter().zip(&tickets).enumerate() {
        let app = &apps[(n + 1) % apps.len()];
        let t = settled(app, &players[holder].key, id).await;
        assert_eq!(t["status"], "matched", "nobody is left waiting: {t}");
        let m = t["match_id"].as_str().unwrap().to_string();
        matches.insert(m.clone(), variant);
        let seat = t["seat"].as_u64().unwrap();
        assert!(
            seat_of
                .insert(players[holder].id.clone(), (m.clone(), seat))
                .is_none()
        );
        if let Some(p) = partner {
            let ps = t["partner_seat"].as_u64().unwrap();
            assert_eq!((seat + 2) % 4, ps, "a pair sits opposite");
            assert!(
                seat_of
                    .insert(players[p].id.clone(), (m.clone(), ps))
                    .is_none()
            );
        }
    }
    assert_eq!(seat_of.len(), 200);
    assert_eq!(matches.len(), 25 + 13 + 16);
    // Each match exists, rated, with exactly the players the tickets say.
    let mut seen = HashSet::new();
    for (m, variant) in &matches {
        let view = apps[0].get(&format!("/v1/matches/{m}"), None).await;
        assert_eq!(view.status, StatusCode::OK, "{}", view.text);
        assert_eq!(view.json["rules"]["variant"], *variant);
        for (s, seat) in view.json["seats"].as_array().unwrap().iter().enumerate() {
            let pid = seat["player"]["id"].as_str().unwrap().to_string();
            assert_eq!(seat_of[&pid], (m.clone(), s as u64), "{pid}");
            assert!(seen.insert(pid), "a player seated twice");
        }
    }
    assert_eq!(seen.len(), 200);
    // The players heard of it on their streams.
    let first = &players[0];
    let events = player_events(&apps[0], &first.key, 0, 0).await;
    let types: Vec<_> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect();
    assert!(types.contains(&"queue_matched".to_string()), "{types:?}");
    assert!(types.contains(&"match_started".to_string()), "{types:?}");
    // One match of each variant is played to the end by its players' keys.
    let key_of: HashMap<&str, &PlayerKey> = players.iter().map(|p| (p.id.as_str(), p)).collect();
    for variant in ["pairs", "abarrotada", "abarrotada3"] {
        let m = matches.iter().find(|(_, v)| **v == variant).unwrap().0;
        let mut keys: Vec<(u64, String)> = seat_of
            .iter()
            .filter(|(_, (mm, _))| mm == m)
            .map(|(p, (_, s))| (*s, key_of[p.as_str()].key.clone()))
            .collect();
        keys.sort();
        play_out(
            &apps[1 % apps.len()],
            m,
            keys.into_iter().map(|k| k.1).collect(),
        )
        .await;
        let view = apps[0].get(&format!("/v1/matches/{m}"), None).await;
        assert_eq!(view.json["phase"], "match_over");
    }
    // Every other match is ended by its seat 0 forfeiting hand after hand,
    // through both instances in turn.
    let holder_of_seat0: HashMap<&str, &str> = seat_of
        .iter()
        .filter(|(_, (_, s))| *s == 0)
        .map(|(p, (m, _))| (m.as_str(), key_of[p.as_str()].key.as_str()))
        .collect();
    for (n, m) in matches.keys().enumerate() {
        for i in 0..200 {
            let app = &apps[(n + i) % apps.len()];
            let view = app.get(&format!("/v1/matches/{m}"), None).await;
            if view.json["phase"] == "match_over" {
                break;
            }
            let r = app
                .post(
                    &format!("/v1/matches/{m}/resign"),
                    Some(holder_of_seat0[m.as_str()]),
                    json!({}),
                )
                .await;
            assert!(
                r.status == StatusCode::OK || r.status == StatusCode::CONFLICT,
                "{}",
                r.text
            );
        }
    }
    // Every match ended, and each player's rated result was applied exactly
    // once: one history entry, naming its match, and one game in its
    // variant's pool, unless no hand was played to its end before the
    // resignations: then it is aborted, unrated, no game counted (docs/api.md,
    // "Fair play: rated means earned").
    for (pid, (m, _)) in &seat_of {
        let app = &apps[pid.len() % apps.len()];
        let view = app.get(&format!("/v1/matches/{m}"), None).await;
        assert_eq!(view.json["phase"], "match_over", "{m}");
        let r = app.get(&format!("/v1/players/{pid}/ratings"), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let pools = r.json["pools"].as_array().unwrap();
        assert_eq!(pools.len(), 1, "{pid}: {}", r.text);
        assert_eq!(pools[0]["pool"], matches[m.as_str()], "{}", r.text);
        let history = pools[0]["history"].as_array().unwrap();
        assert_eq!(history.len(), 1, "{pid}: {}", r.text);
        assert_eq!(history[0]["match_id"], m.as_str(), "{}", r.text);
        let games = if history[0]["unrated"] == "aborted" {
            0
        } else {
            1
        };
        assert_eq!(pools[0]["games"], games, "{pid}: {}", r.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_bot_players_queue_at_once_on_memory() {
    let app = spawn_lobby_app(Backend::Memory).await;
    two_hundred_players_queue_at_once(&[app]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_bot_players_queue_at_once_through_two_instances_on_one_redis() {
    let a = spawn_lobby_app(Backend::Redis).await;
    let b = spawn_lobby_app(Backend::Redis).await;
    two_hundred_players_queue_at_once(&[a, b]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_bot_players_queue_at_once_through_two_instances_on_a_cluster() {
    let a = spawn_lobby_app(Backend::Cluster).await;
    let b = spawn_lobby_app(Backend::Cluster).await;
    two_hundred_players_queue_at_once(&[a, b]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_player_is_seated_with_house_bots_after_its_fill_wait() {
    let app = spawn_lobby_app(Backend::Memory).await;
    let p = register(&app, "lonely", "human").await;
    let r = enqueue(
        &app,
        &p.key,
        json!({"variant": "abarrotada3", "fill_with_house_bots_after_s": 1}),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["status"], "waiting");
    assert_eq!(r.json["position"], 1);
    assert_eq!(r.json["window"], json!({"min": 1400.0, "max": 1600.0}));
    let id = r.json["ticket_id"].as_str().unwrap();
    let t = settled(&app, &p.key, id).await;
    assert_eq!(t["status"], "matched", "{t}");
    assert!(t["waited_ms"].as_u64().unwrap() >= 1000);
    let m = t["match_id"].as_str().unwrap();
    let view = app.get(&format!("/v1/matches/{m}"), None).await;
    let seats = view.json["seats"].as_array().unwrap();
    let bots: Vec<_> = seats
        .iter()
        .filter(|s| s["kind"] == "bot")
        .map(|s| s["bot"].as_str().unwrap())
        .collect();
    assert_eq!(bots, ["medium", "medium"], "the level nearest 1500");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_leaves_the_queue_and_a_second_ticket_is_refused_while_one_waits() {
    let app = spawn_lobby_app(Backend::Memory).await;
    let p = register(&app, "p", "bot").await;
    let partner = register(&app, "partner", "bot").await;
    let r = party_queue(&app, &p.key, &partner, json!({"variant": "pairs"})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["ticket_id"].as_str().unwrap().to_string();
    // Neither the player nor its partner may queue again while it waits.
    for k in [&p.key, &partner.key] {
        let again = enqueue(&app, k, json!({"variant": "abarrotada"})).await;
        assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
        assert_eq!(again.json["code"], "already_queued");
    }
    // The partner reads the ticket too; another player does not.
    assert_eq!(
        ticket(&app, &partner.key, &id, 0).await["status"],
        "waiting"
    );
    let other = register(&app, "other", "bot").await;
    let r = app.get(&format!("/v1/queue/{id}"), Some(&other.key)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json["code"], "ticket_not_found");
    let r = leave(&app, &p.key, &id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "cancelled");
    assert_eq!(leave(&app, &p.key, &id).await.json["status"], "cancelled");
    // Once it left, it may queue again; a matched ticket cannot be left.
    let r = enqueue(&app, &p.key, json!({"variant": "abarrotada3"})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["ticket_id"].as_str().unwrap().to_string();
    for k in [&partner.key, &other.key] {
        let r = enqueue(&app, k, json!({"variant": "abarrotada3"})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let t = settled(&app, &p.key, &id).await;
    assert_eq!(t["status"], "matched");
    let r = leave(&app, &p.key, &id).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "ticket_matched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unmatched_ticket_expires_and_frees_its_player() {
    let app = spawn_lobby_app(Backend::Memory).await;
    let p = register(&app, "p", "bot").await;
    let r = enqueue(
        &app,
        &p.key,
        json!({"variant": "pairs", "rated": false, "expires_in_s": 1}),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["rated"], false);
    let id = r.json["ticket_id"].as_str().unwrap();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let t = settled(&app, &p.key, id).await;
    assert_eq!(t["status"], "expired", "{t}");
    let r = enqueue(&app, &p.key, json!({"variant": "pairs"})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_who_wants_no_bots_is_not_seated_with_bots() {
    let app = spawn_lobby_app(Backend::Memory).await;
    let human = register(&app, "h", "human").await;
    let r = enqueue(
        &app,
        &human.key,
        json!({"variant": "abarrotada3", "accept_bots": false}),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["ticket_id"].as_str().unwrap().to_string();
    for i in 0..2 {
        let b = register(&app, &format!("b{i}"), "bot").await;
        let r = enqueue(&app, &b.key, json!({"variant": "abarrotada3"})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    assert_eq!(
        ticket(&app, &human.key, &id, 300).await["status"],
        "waiting"
    );
    // Two bots that play only bots meet the two waiting bots' pool too.
    let mut bots = Vec::new();
    for i in 0..2 {
        let b = register(&app, &format!("o{i}"), "bot").await;
        let r = enqueue(
            &app,
            &b.key,
            json!({"variant": "abarrotada3", "only_bots": true}),
        )
        .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        bots.push((b, r.json["ticket_id"].as_str().unwrap().to_string()));
    }
    let t = settled(&app, &bots[0].0.key, &bots[0].1).await;
    assert_eq!(t["status"], "matched");
    let m = t["match_id"].as_str().unwrap();
    let view = app.get(&format!("/v1/matches/{m}"), None).await;
    for s in view.json["seats"].as_array().unwrap() {
        assert_eq!(s["player"]["kind"], "bot", "{}", view.text);
    }
    assert_eq!(ticket(&app, &human.key, &id, 0).await["status"], "waiting");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_queue_requests_are_refused_with_problems_and_change_nothing() {
    let app = spawn_lobby_app(Backend::Memory).await;
    let p = register(&app, "p", "bot").await;
    let partner = register(&app, "q", "bot").await;
    let cases = [
        json!({}),
        json!({"variant": "tute"}),
        json!({"variant": "pairs", "extra": 1}),
        json!({"variant": "pairs", "rated": "yes"}),
        json!({"variant": "abarrotada", "partner": partner.id}),
        json!({"variant": "pairs", "partner": p.id}),
        json!({"variant": "pairs", "partner": "house-medium"}),
        json!({"variant": "pairs", "only_bots": true, "accept_bots": false}),
        json!({"variant": "pairs", "accept_bots": false, "fill_with_house_bots_after_s": 5}),
        json!({"variant": "pairs", "fill_with_house_bots_after_s": 3601}),
        json!({"variant": "pairs", "expires_in_s": 0}),
        json!({"variant": "pairs", "expires_in_s": 3601}),
    ];
    for body in cases {
        let r = enqueue(&app, &p.key, body.clone()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.text);
        assert_eq!(r.content_type, "application/problem+json", "{body}");
    }
    let r = app
        .post("/v1/queue", None, json!({"variant": "pairs"}))
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = app
        .post(
            "/v1/queue",
            Some("bt_not_a_key"),
            json!({"variant": "pairs"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = app
        .get("/v1/queue/q000000000000000000000000", Some(&p.key))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = enqueue(&app, &p.key, json!({"variant": "pairs"})).await;
    assert_eq!(
        r.status,
        StatusCode::CREATED,
        "nothing was left queued: {}",
        r.text
    );
    let id = r.json["ticket_id"].as_str().unwrap();
    let r = app
        .get(&format!("/v1/queue/{id}?wait_ms=999999"), Some(&p.key))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // The partner was never queued by the refused requests.
    let r = enqueue(&app, &partner.key, json!({"variant": "abarrotada"})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
}
