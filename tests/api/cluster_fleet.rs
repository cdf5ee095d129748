//! Two server instances on one Redis Cluster (three masters, started by the
//! harness), with no affinity: whatever is made through one is seen and
//! used through the other — a player and its key, a public table listed
//! and joined, queue tickets matched together, a challenge accepted and
//! its match played.

use std::collections::HashSet;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_lobby_app};
use crate::lobby_client::{PlayerKey, create_table_as, four_open, join, play_to_end, register};

/// Instances A and B on the test cluster, for matches and the lobby.
async fn a_and_b() -> (TestApp, TestApp) {
    (
        spawn_lobby_app(Backend::Cluster).await,
        spawn_lobby_app(Backend::Cluster).await,
    )
}

/// Plays match `id` to its end, seat `i` with `creds[i]`, each seat
/// through A or B in turn.
async fn play_out_across(a: &TestApp, b: &TestApp, id: &str, creds: Vec<String>) {
    let tasks: Vec<_> = creds
        .into_iter()
        .enumerate()
        .map(|(i, cred)| {
            let base = if i % 2 == 0 { &a.base } else { &b.base };
            let (app, id) = (TestApp::external(base.clone()), id.to_string());
            tokio::spawn(async move { play_to_end(&app, &id, &cred).await })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    for app in [a, b] {
        let view = app.get(&format!("/v1/matches/{id}"), None).await;
        assert_eq!(view.json["phase"], "match_over", "{}", view.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_registered_on_one_instance_acts_on_the_other() {
    let (a, b) = a_and_b().await;
    let p = register(&a, "roamer", "human").await;
    let me = b.get("/v1/players/me", Some(&p.key)).await;
    assert_eq!(me.status, StatusCode::OK, "its key works on B: {}", me.text);
    assert_eq!(me.json["id"], p.id.as_str());
    let public = b.get(&format!("/v1/players/{}", p.id), None).await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.text);
    assert_eq!(public.json["name"], "roamer");
    // A table it makes through B, with its seat, is read back through A.
    let created = create_table_as(
        &b,
        Some(&p.key),
        four_open(json!({"seats": [{"kind": "remote", "player": p.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})),
    )
    .await;
    let id = created["table"]["table_id"].as_str().unwrap();
    let table = a.get(&format!("/v1/tables/{id}"), None).await;
    assert_eq!(table.status, StatusCode::OK, "{}", table.text);
    assert_eq!(table.json["seats"][0]["player"]["id"], p.id.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_made_on_one_instance_is_listed_and_joined_on_the_other() {
    let (a, b) = a_and_b().await;
    let host = register(&a, "host", "bot").await;
    let created = create_table_as(
        &a,
        Some(&host.key),
        four_open(json!({"seats": [{"kind": "remote", "player": host.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})),
    )
    .await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let host_token = created["tokens"][0]["token"].as_str().unwrap().to_string();
    // Listed on B (the listing pages through every public table).
    let mut listed = false;
    let mut cursor = String::new();
    for _ in 0..1000 {
        let page = b.get(&format!("/v1/lobby?limit=100{cursor}"), None).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        let tables = page.json["tables"].as_array().unwrap();
        listed |= tables.iter().any(|t| t["table_id"] == id.as_str());
        match page.json["next"].as_str() {
            Some(next) if !listed => cursor = format!("&after={next}"),
            _ => break,
        }
    }
    assert!(listed, "the table made on A is in B's lobby");
    // Joined on B by three players registered there: the last join starts it.
    let mut tokens = vec![host_token];
    for i in 0..3 {
        let p = register(&b, &format!("joiner{i}"), "bot").await;
        let r = join(&b, &id, Some(&p.key), json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.json["started"], i == 2);
        assert_eq!(r.json["token"]["seat"], i + 1);
        tokens.push(r.json["token"]["token"].as_str().unwrap().to_string());
    }
    let table = a.get(&format!("/v1/tables/{id}"), None).await;
    assert_eq!(table.json["match_id"], id.as_str(), "{}", table.text);
    play_out_across(&a, &b, &id, tokens).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_queued_on_each_instance_are_matched_together() {
    let (a, b) = a_and_b().await;
    let mut players = Vec::new();
    for i in 0..4 {
        let app = if i < 2 { &a } else { &b };
        players.push((i, register(app, &format!("queuer{i}"), "bot").await));
    }
    let tasks: Vec<_> = players
        .iter()
        .map(|(i, p)| {
            let base = if *i < 2 { &a.base } else { &b.base };
            let (app, key) = (TestApp::external(base.clone()), p.key.clone());
            tokio::spawn(async move {
                let r = app
                    .post("/v1/queue", Some(&key), json!({"variant": "pairs"}))
                    .await;
                assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
                r.json["ticket_id"].as_str().unwrap().to_string()
            })
        })
        .collect();
    let mut tickets = Vec::new();
    for t in tasks {
        tickets.push(t.await.unwrap());
    }
    // Each ticket, read through the other instance, is matched into one match.
    let mut matches = HashSet::new();
    let mut seats = HashSet::new();
    for ((i, p), ticket) in players.iter().zip(&tickets) {
        let other = if *i < 2 { &b } else { &a };
        let t = settled(other, &p.key, ticket).await;
        assert_eq!(t["status"], "matched", "{t}");
        matches.insert(t["match_id"].as_str().unwrap().to_string());
        seats.insert(t["seat"].as_u64().unwrap());
    }
    assert_eq!(matches.len(), 1, "the four are matched together");
    assert_eq!(seats.len(), 4);
    let m = matches.into_iter().next().unwrap();
    let view = a.get(&format!("/v1/matches/{m}"), None).await;
    let seated: HashSet<&str> = view.json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["id"].as_str().unwrap())
        .collect();
    let queued: HashSet<&str> = players.iter().map(|(_, p)| p.id.as_str()).collect();
    assert_eq!(seated, queued, "no house bot: {}", view.text);
}

/// Ticket `id` once it stops waiting (long polls of up to 5 s).
async fn settled(app: &TestApp, key: &str, id: &str) -> Value {
    for _ in 0..20 {
        let r = app
            .get(&format!("/v1/queue/{id}?wait_ms=5000"), Some(key))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        if r.json["status"] != "waiting" {
            return r.json;
        }
    }
    panic!("ticket {id} still waits");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_made_on_one_instance_is_accepted_and_played_on_the_other() {
    let (a, b) = a_and_b().await;
    let me = register(&a, "challenger", "bot").await;
    let mut others: Vec<PlayerKey> = Vec::new();
    for name in ["partner", "left", "right"] {
        others.push(register(&b, name, "bot").await);
    }
    let (partner, o1, o2) = (&others[0], &others[1], &others[2]);
    let r = a
        .post(
            "/v1/challenges",
            Some(&me.key),
            json!({
                "variant": "pairs",
                "partner": partner.id,
                "opponents": [o1.id, o2.id],
                "rules": {"variant": "pairs", "max_hands": 1},
            }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["challenge_id"].as_str().unwrap().to_string();
    for (n, who) in others.iter().enumerate() {
        let r = b
            .send(
                Method::POST,
                &format!("/v1/challenges/{id}/accept"),
                Some(&who.key),
                None,
                &[],
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let want = if n == 2 { "started" } else { "pending" };
        assert_eq!(r.json["status"], want, "{}", r.text);
    }
    let got = a.get(&format!("/v1/challenges/{id}"), Some(&me.key)).await;
    assert_eq!(got.json["match_id"], id.as_str(), "{}", got.text);
    let keys = [&me, o1, partner, o2].map(|p| p.key.clone()).to_vec();
    play_out_across(&a, &b, &id, keys).await;
}
