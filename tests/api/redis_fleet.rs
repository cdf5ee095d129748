//! Server instances sharing one Redis (or, through `--redis-cluster`, one
//! Redis Cluster: matches and the lobby alike), and a Redis outage
//! mid-match.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_with_store, store_for};
use crate::backends::cluster::cluster_urls;
use crate::backends::redis::{RedisProcess, redis_url};
use crate::lobby_client::{create_table_as, four_open, register};

/// A `botifarra` server process on a free port, killed on drop.
pub(crate) struct ServerProcess {
    pub(crate) child: Child,
    pub(crate) app: TestApp,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn start_process(redis: &str) -> ServerProcess {
    start_process_on("REDIS_URL", redis).await
}

/// A server process whose store is chosen by the environment variable
/// `var` (`REDIS_URL`, `REDIS_CLUSTER_NODES`) set to `value`.
async fn start_process_on(var: &str, value: &str) -> ServerProcess {
    start_process_with(var, value, &[]).await
}

/// [`start_process_on`] with `extra` arguments to `serve`.
pub(crate) async fn start_process_with(var: &str, value: &str, extra: &[&str]) -> ServerProcess {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(env!("CARGO_BIN_EXE_botifarra"))
        .args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--workers",
            "2",
        ])
        .args(extra)
        .env(var, value)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the botifarra binary");
    let app = TestApp::external(format!("http://127.0.0.1:{port}"));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(r) = app.client.get(format!("{}/readyz", app.base)).send().await
            && r.status() == 200
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the server process did not become ready"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    ServerProcess { child, app }
}

/// Posts the first legal action of the seat to act through `app`.
async fn step(app: &TestApp, id: &str, tokens: &[String]) -> Option<Value> {
    let v = app.get(&format!("/v1/matches/{id}"), None).await.json;
    if v["phase"] == "match_over" {
        return None;
    }
    let turn = v["turn"].as_u64().unwrap() as usize;
    let legal = app
        .get(
            &format!("/v1/matches/{id}/legal-moves"),
            Some(&tokens[turn]),
        )
        .await
        .json;
    let action = legal["actions"][0].clone();
    let r = app
        .post(
            &format!("/v1/matches/{id}/actions"),
            Some(&tokens[turn]),
            action,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    Some(r.json)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_server_processes_share_one_match_through_redis() {
    let url = redis_url();
    let a = start_process(&url).await;
    let b = start_process(&url).await;
    let (id, tokens) = a.app.create(json!({"rules": {"target": 31}})).await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();

    // A long poll on A is woken by a move made through B.
    let last = a
        .app
        .get(&format!("/v1/matches/{id}/events"), None)
        .await
        .json["last_seq"]
        .as_u64()
        .unwrap();
    let poll = {
        let client = a.app.client.clone();
        let url = format!(
            "{}/v1/matches/{id}/events?after={last}&wait_ms=25000",
            a.app.base
        );
        tokio::spawn(async move {
            client
                .get(url)
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(step(&b.app, &id, &tokens).await.is_some());
    let woken = poll.await.unwrap();
    let events = woken["events"].as_array().unwrap();
    assert!(!events.is_empty(), "the long poll on A returned no event");
    assert_eq!(events[0]["type"], "hand_dealt");

    // Alternate requests between the two instances to the end of the match.
    let mut n = 0;
    while step(if n % 2 == 0 { &a.app } else { &b.app }, &id, &tokens)
        .await
        .is_some()
    {
        n += 1;
        assert!(n < 5000, "the match did not end");
    }
    let va = a.app.get(&format!("/v1/matches/{id}"), None).await.json;
    let vb = b.app.get(&format!("/v1/matches/{id}"), None).await.json;
    assert_eq!(va, vb, "both instances see the same match");
    assert_eq!(va["phase"], "match_over");
    let seqs: Vec<u64> = a
        .app
        .get(&format!("/v1/matches/{id}/events?limit=1000"), None)
        .await
        .json["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert!(
        seqs.windows(2).all(|w| w[1] == w[0] + 1),
        "events are numbered without gaps"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_server_processes_on_a_cluster_share_players_and_tables() {
    let nodes = cluster_urls().join(",");
    let a = start_process_on("REDIS_CLUSTER_NODES", &nodes).await;
    let b = start_process_on("REDIS_CLUSTER_NODES", &nodes).await;
    let p = register(&a.app, "fleet", "bot").await;
    let me = b.app.get("/v1/players/me", Some(&p.key)).await;
    assert_eq!(me.status, StatusCode::OK, "the key works on B: {}", me.text);
    assert_eq!(me.json["id"], p.id.as_str());
    let created = create_table_as(
        &b.app,
        Some(&p.key),
        four_open(json!({"seats": [{"kind": "remote", "player": p.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})),
    )
    .await;
    let id = created["table"]["table_id"].as_str().unwrap();
    let table = a.app.get(&format!("/v1/tables/{id}"), None).await;
    assert_eq!(table.status, StatusCode::OK, "{}", table.text);
    assert_eq!(table.json["seats"][0]["player"]["id"], p.id.as_str());
    let ready = a.app.get("/readyz", None).await;
    assert_eq!(ready.status, StatusCode::OK, "{}", ready.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_restart_mid_match_gives_503_then_the_match_goes_on() {
    let mut redis = RedisProcess::start_persistent();
    let app = spawn_with_store(store_for(Backend::Redis, Some(redis.url())).await).await;
    let (id, tokens) = app.create(json!({"rules": {"target": 31}})).await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    for _ in 0..10 {
        step(&app, &id, &tokens).await;
    }
    let before = app
        .get(&format!("/v1/matches/{id}"), Some(&tokens[0]))
        .await
        .json;

    redis.stop();
    let r = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert_eq!(r.json["code"], "store_unavailable");
    let turn = before["turn"].as_u64().unwrap() as usize;
    let r = app
        .post(
            &format!("/v1/matches/{id}/actions"),
            Some(&tokens[turn]),
            json!({"type": "deal"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert_eq!(
        app.get("/readyz", None).await.status,
        StatusCode::SERVICE_UNAVAILABLE
    );
    assert_eq!(
        app.get("/healthz", None).await.status,
        StatusCode::OK,
        "liveness does not depend on Redis"
    );

    redis.restart();
    let deadline = Instant::now() + Duration::from_secs(20);
    let after = loop {
        let r = app
            .get(&format!("/v1/matches/{id}"), Some(&tokens[0]))
            .await;
        if r.status == StatusCode::OK {
            break r.json;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not recover: {}",
            r.text
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(after, before, "nothing was lost or half-written");
    assert_eq!(app.get("/readyz", None).await.status, StatusCode::OK);
    let mut n = 0;
    while step(&app, &id, &tokens).await.is_some() {
        n += 1;
        assert!(n < 5000);
    }
}
