//! A tournament survives an instance killed mid-round: two server
//! processes on the test Redis, a Swiss of 8 players (4 drawn
//! partnerships) over 2 rounds made and entered through A; once round 1
//! is paired, A is killed (`SIGKILL`) while its matches are played
//! through B. B alone reads the results and pairs round 2: every
//! partnership plays once a round, nothing is paired twice, no result is
//! lost, and every player hears each round once.

use std::time::Duration;

use serde_json::json;

use crate::app::TestApp;
use crate::backends::redis::redis_url;
use crate::cluster_kill::OPEN;
use crate::redis_fleet::start_process_with;
use crate::tournaments::{get, play_all, started};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_is_finished_by_the_instance_left() {
    let url = redis_url();
    let mut a = start_process_with("REDIS_URL", &url, &OPEN).await;
    let b = start_process_with("REDIS_URL", &url, &OPEN).await;
    let a_app = TestApp::external(a.app.base.clone());
    let (tid, who) = started(
        std::slice::from_ref(&a_app),
        json!({"name": "Resistent", "variant": "pairs", "format": "swiss", "rounds": 2,
               "rules": {"variant": "pairs", "max_hands": 1}, "starts_in_s": 3600}),
        8,
    )
    .await;
    let b_app = TestApp::external(b.app.base.clone());
    let apps = vec![TestApp::external(b.app.base.clone())];
    let (tid2, who2) = (tid.clone(), who.clone());
    let play = tokio::spawn(async move { play_all(&apps, &tid2, &who2).await });
    let path = format!("/v1/tournaments/{tid}");
    for _ in 0..300 {
        let t = get(&b_app, &path).await;
        if !t["round_list"].as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    a.child.kill().expect("kill A");
    let heard = play.await.unwrap();
    for h in &heard {
        assert_eq!(h.rounds, vec![1, 2], "each round heard once");
        assert_eq!(h.over.as_ref().unwrap()["status"], "over");
    }
    let t = get(&b_app, &path).await;
    assert_eq!(t["status"], "over");
    let mut games = 0;
    for n in 1..=2 {
        let round = get(&b_app, &format!("{path}/rounds/{n}")).await;
        let tables = round["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 2, "round {n} paired once");
        let mut seated: Vec<u64> = tables
            .iter()
            .flat_map(|t| {
                t["units"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|u| u.as_u64().unwrap())
            })
            .collect();
        seated.sort_unstable();
        assert_eq!(seated, vec![0, 1, 2, 3], "every unit once in round {n}");
        assert!(
            tables.iter().all(|t| t["result"].is_object()),
            "no result lost"
        );
        games += tables.len();
    }
    let total: f64 = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["score"].as_f64().unwrap())
        .sum();
    assert_eq!(total, games as f64, "each game's point counted once");
    assert_eq!(t["round_list"].as_array().unwrap().len(), 2);
}
