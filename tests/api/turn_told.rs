//! A player's turn is never left untold: the first try to tell the player
//! of every third turn, and of the match's end, fails as if the store
//! were down, after the write it tells of. The scheduler's tell check
//! tells the turn again, and its settling of the finished match tells the
//! end, so a bot that acts only on its `your_turn` events plays its match
//! (no clock: without that check it would wait for ever) and hears each
//! turn and the end exactly once. Played twice: with the house bots'
//! replies played by the player's own writes, and with one step a write,
//! so that the scheduler's commits pass the turn (and tell it).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use botifarra::lobby::Lobby;
use botifarra::service::{Limits, Service};

use crate::app::{Backend, lobby_store_for, spawn_service, store_for, unlimited};
use crate::backends::both_stores;
use crate::lobby_client::{player_events, post_at_version, register};
use crate::tapped_store::TappedStore;

/// How long the bot may take to finish its hand.
const DEADLINE: Duration = Duration::from_secs(180);

/// The player's turns told by its own writes (the house bots' replies
/// played within them).
async fn a_turn_whose_telling_failed_is_told_again_once(backend: Backend) {
    told_again_once(backend, Limits::default().max_steps).await;
}

/// The player's turns told by the scheduler's commits: one engine step a
/// write, so the house bots' replies are the scheduler's.
async fn a_turn_the_scheduler_failed_to_tell_is_told_again_once(backend: Backend) {
    told_again_once(backend, 1).await;
}

async fn told_again_once(backend: Backend, max_steps: usize) {
    let tries = Arc::new(Mutex::new(HashMap::<String, u32>::new()));
    let mut tapped = TappedStore::over(lobby_store_for(backend).await);
    let counted = Arc::clone(&tries);
    tapped.refuse_once = Box::new(move |once: &str| {
        let mut tries = counted.lock().unwrap_or_else(PoisonError::into_inner);
        let keys = tries.len();
        let n = tries.entry(once.to_string()).or_default();
        *n += 1;
        // The first try of every third turn told, and of the end.
        *n == 1 && (once.starts_with("over:") || once.starts_with("turn:") && keys % 3 == 2)
    });
    let limits = Limits {
        max_steps,
        ..Limits::default()
    };
    let svc = Service::new(store_for(backend, None).await, limits).expect("start the service");
    let app = spawn_service(Lobby::new(svc, Arc::new(tapped)), unlimited());
    let me = register(&app, "told", "bot").await;
    let r = app
        .post(
            "/v1/matches",
            Some(&me.key),
            json!({"auto_deal": true, "rules": {"max_hands": 1},
                   "seats": [{"player": me.id}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["match_id"].as_str().unwrap().to_string();

    // Acts only on `your_turn`, as a daemon does; counts each version told.
    let mut heard: HashMap<u64, u32> = HashMap::new();
    let (mut after, mut over) = (0, 0);
    let started = Instant::now();
    while over == 0 {
        assert!(
            started.elapsed() < DEADLINE,
            "the match did not end: turns heard {heard:?}, tries {:?}",
            tries.lock().unwrap_or_else(PoisonError::into_inner)
        );
        let page = player_events(&app, &me.key, after, 5_000).await;
        after = page["last_seq"].as_u64().unwrap();
        let mut turn: Option<Value> = None;
        for e in page["events"].as_array().unwrap() {
            match e["type"].as_str().unwrap() {
                "your_turn" => {
                    assert_eq!(e["match_id"], id.as_str());
                    *heard.entry(e["version"].as_u64().unwrap()).or_default() += 1;
                    turn = Some(e["version"].clone());
                }
                "match_over" => over += 1,
                _ => {}
            }
        }
        if let (Some(version), 0) = (turn, over) {
            let path = format!("/v1/matches/{id}");
            let view = app.get(&path, Some(&me.key)).await;
            assert_eq!(view.status, StatusCode::OK, "{}", view.text);
            if view.json["version"] == version
                && let Some(action) = view.json["legal_actions"].get(0)
            {
                post_at_version(&app, &id, &me.key, action, &version).await;
            }
        }
    }
    // Nothing more comes: the end is told once too.
    let page = player_events(&app, &me.key, after, 3_000).await;
    let more = page["events"].as_array().unwrap();
    assert!(more.is_empty(), "after the end: {more:?}");
    assert_eq!(over, 1, "match_over heard once");
    let tries = tries.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let over_key = format!("over:{id}");
    assert!(tries[&over_key] > 1, "the end told again: {tries:?}");
    let refused: Vec<&String> = tries
        .iter()
        .filter(|(k, n)| k.starts_with("turn:") && **n > 1)
        .map(|(k, _)| k)
        .collect();
    assert!(refused.len() >= 2, "some tellings failed: {tries:?}");
    for key in &refused {
        let version: u64 = key.rsplit(':').next().unwrap().parse().unwrap();
        assert_eq!(heard.get(&version), Some(&1), "{key} heard once");
    }
    assert!(
        heard.values().all(|&n| n == 1),
        "every turn heard once: {heard:?}"
    );
    assert!(heard.len() >= 12, "a hand's turns: {heard:?}");
}

both_stores!(
    a_turn_whose_telling_failed_is_told_again_once,
    a_turn_the_scheduler_failed_to_tell_is_told_again_once,
);
