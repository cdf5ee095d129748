//! Races for seats, on memory and on two server instances sharing one
//! Redis or one Redis Cluster: one open seat and 32 clients; 100 bot players and 25 tables,
//! every match played to the end; a player's stream on one instance
//! hearing of a start made through the other.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_lobby_app};
use crate::backends::all_stores;
use crate::lobby_client::{
    PlayerKey, create_table, create_table_as, four_open, join, post_at_version, register,
};

/// One app on memory; two instances sharing the test Redis or Cluster.
async fn instances(backend: Backend) -> Vec<TestApp> {
    match backend {
        Backend::Memory => vec![spawn_lobby_app(backend).await],
        Backend::Redis | Backend::Cluster => vec![
            spawn_lobby_app(backend).await,
            spawn_lobby_app(backend).await,
        ],
    }
}

async fn thirty_two_clients_race_for_one_open_seat(backend: Backend) {
    let apps = instances(backend).await;
    let created = create_table(
        &apps[0],
        json!({"seats": [{"kind": "remote"}, {"kind": "remote"}, {"kind": "remote"}, {"kind": "open"}]}),
    )
    .await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let tasks: Vec<_> = (0..32)
        .map(|i| {
            let app = TestApp::external(apps[i % apps.len()].base.clone());
            let id = id.clone();
            tokio::spawn(async move {
                join(&app, &id, None, json!({"name": format!("racer{i}")})).await
            })
        })
        .collect();
    let mut won = Vec::new();
    for t in tasks {
        let r = t.await.unwrap();
        match r.status {
            StatusCode::OK => won.push(r.json),
            StatusCode::CONFLICT => assert_eq!(r.json["code"], "seat_taken"),
            other => panic!("unexpected {other}: {}", r.text),
        }
    }
    assert_eq!(won.len(), 1, "exactly one client gets the seat");
    assert_eq!(won[0]["token"]["seat"], 3);
    assert_eq!(won[0]["started"], true);
    let token = won[0]["token"]["token"].as_str().unwrap();
    for app in &apps {
        let view = app.get(&format!("/v1/matches/{id}"), Some(token)).await;
        assert_eq!(view.status, StatusCode::OK, "{}", view.text);
        assert_eq!(view.json["you"], 3);
    }
}

/// A bot player: finds one of `tables` in the lobby, joins it, waits on
/// its stream and plays its seat until the match is over. Returns
/// (table, seat).
async fn bot_player(
    app: TestApp,
    me: PlayerKey,
    tables: HashSet<String>,
    n: usize,
) -> (String, u64) {
    let mut seated = None;
    for round in 0..1000 {
        let page = app.get("/v1/lobby?limit=100", None).await.json;
        let open: Vec<String> = page["tables"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["table_id"].as_str().map(str::to_string))
            .filter(|id| tables.contains(id))
            .collect();
        if !open.is_empty() {
            let id = &open[(n + round) % open.len()];
            let r = join(&app, id, Some(&me.key), json!({})).await;
            match r.status {
                StatusCode::OK => {
                    seated = Some((id.clone(), r.json["token"]["seat"].as_u64().unwrap()));
                    break;
                }
                StatusCode::CONFLICT | StatusCode::SERVICE_UNAVAILABLE => continue,
                other => panic!("join answered {other}: {}", r.text),
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (table, seat) = seated.expect("a seat was found");
    let mut after = 0;
    let mut started = false;
    loop {
        let page = app
            .get(
                &format!("/v1/players/me/events?after={after}&wait_ms=10000"),
                Some(&me.key),
            )
            .await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        after = page.json["last_seq"].as_u64().unwrap();
        for e in page.json["events"].as_array().unwrap() {
            match e["type"].as_str().unwrap() {
                "match_started" => {
                    assert_eq!(e["match_id"], table.as_str());
                    assert_eq!(e["seat"], seat);
                    started = true;
                }
                "your_turn" => {
                    assert!(started, "a turn before the start");
                    play_turn(&app, &me.key, &table, e).await;
                }
                "match_over" => return (table, seat),
                _ => {}
            }
        }
    }
}

/// Plays the first legal action if the turn announced is still current.
async fn play_turn(app: &TestApp, key: &str, id: &str, event: &Value) {
    let legal = app
        .get(&format!("/v1/matches/{id}/legal-moves"), Some(key))
        .await
        .json;
    if legal["version"] != event["version"] {
        return;
    }
    let Some(action) = legal["actions"].get(0) else {
        return;
    };
    post_at_version(app, id, key, action, &legal["version"]).await;
}

async fn a_hundred_bot_players_fill_twenty_five_tables_and_play_them_out(backend: Backend) {
    let apps = instances(backend).await;
    let mut tables = HashSet::new();
    for i in 0..25 {
        let t = create_table(&apps[i % apps.len()], four_open(json!({}))).await;
        tables.insert(t["table"]["table_id"].as_str().unwrap().to_string());
    }
    let mut players = Vec::new();
    for i in 0..100 {
        players.push(register(&apps[i % apps.len()], &format!("bot{i}"), "bot").await);
    }
    let tasks: Vec<_> = players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let app = TestApp::external(apps[i % apps.len()].base.clone());
            tokio::spawn(bot_player(app, p.clone(), tables.clone(), i))
        })
        .collect();
    let mut seats: HashMap<String, Vec<u64>> = HashMap::new();
    for t in tasks {
        let (table, seat) = t.await.unwrap();
        seats.entry(table).or_default().push(seat);
    }
    assert_eq!(seats.len(), 25, "every table was used");
    for (id, mut s) in seats {
        s.sort_unstable();
        assert_eq!(s, [0, 1, 2, 3], "every seat of {id} filled exactly once");
        let view = apps[0].get(&format!("/v1/matches/{id}"), None).await.json;
        assert_eq!(view["phase"], "match_over");
        let ids: HashSet<&str> = view["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["player"]["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids.len(), 4);
    }
    for p in &players {
        let me = apps[apps.len() - 1]
            .get("/v1/players/me", Some(&p.key))
            .await;
        assert_eq!(me.json["matches_played"], 1, "each player played once");
    }
}

all_stores!(
    thirty_two_clients_race_for_one_open_seat,
    a_hundred_bot_players_fill_twenty_five_tables_and_play_them_out,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_on_one_instance_hears_of_a_start_made_through_another() {
    stream_on_one_instance_hears_a_start_made_through_another(Backend::Redis).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_cluster_a_stream_on_one_instance_hears_of_a_start_made_through_another() {
    stream_on_one_instance_hears_a_start_made_through_another(Backend::Cluster).await;
}

async fn stream_on_one_instance_hears_a_start_made_through_another(backend: Backend) {
    let a = spawn_lobby_app(backend).await;
    let b = spawn_lobby_app(backend).await;
    let p = register(&a, "listener", "bot").await;
    let created = create_table_as(
        &a,
        Some(&p.key),
        four_open(json!({"seats": [{"kind": "remote", "player": p.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})),
    )
    .await;
    let id = created["table"]["table_id"].as_str().unwrap().to_string();
    let poll = {
        let (app, key) = (TestApp::external(a.base.clone()), p.key.clone());
        tokio::spawn(async move {
            let mut after = 0;
            loop {
                let page = app
                    .get(
                        &format!("/v1/players/me/events?after={after}&wait_ms=20000"),
                        Some(&key),
                    )
                    .await
                    .json;
                after = page["last_seq"].as_u64().unwrap();
                if let Some(e) = page["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["type"] == "match_started")
                {
                    return e.clone();
                }
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..3 {
        assert_eq!(join(&b, &id, None, json!({})).await.status, StatusCode::OK);
    }
    let started = tokio::time::timeout(Duration::from_secs(30), poll)
        .await
        .expect("the stream on A heard of it")
        .unwrap();
    assert_eq!(started["match_id"], id.as_str());
    assert_eq!(started["seat"], 0);
}
