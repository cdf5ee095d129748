//! The scheduler: matches move with nobody reading, reads never write, and
//! two instances on one store play each step once, one taking over from
//! the other.

use std::sync::Arc;
use std::time::Duration;

use botifarra::http::ServeOptions;
use botifarra::store::MatchStore;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::app::{Backend, TestApp, spawn_with, store_for, unlimited};
use crate::backends::both_stores;

fn four_bots(target: u32) -> Value {
    let bot = json!({"kind": "bot", "bot": "random"});
    json!({"seats": [bot, bot, bot, bot], "auto_deal": true, "rules": {"target": target}})
}

fn options(f: impl FnOnce(&mut ServeOptions)) -> ServeOptions {
    let mut o = unlimited();
    f(&mut o);
    o
}

/// The stored version of match `id`, read from the store itself.
async fn stored(store: &Arc<dyn MatchStore>, id: &str) -> u64 {
    store.load(id).await.unwrap().expect("stored").version
}

/// Waits until the stored version of `id` has not moved for `quiet`, or
/// fails after `within`; the version it settled at.
async fn settled(store: &Arc<dyn MatchStore>, id: &str, quiet: Duration, within: Duration) -> u64 {
    let end = Instant::now() + within;
    let mut last = stored(store, id).await;
    let mut since = Instant::now();
    loop {
        assert!(
            Instant::now() < end,
            "match {id} still moving at version {last}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
        let now = stored(store, id).await;
        if now != last {
            (last, since) = (now, Instant::now());
        } else if since.elapsed() >= quiet {
            return last;
        }
    }
}

async fn phase(app: &TestApp, id: &str) -> Value {
    let r = app.get(&format!("/v1/matches/{id}"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["phase"].clone()
}

async fn four_house_bots_play_to_the_end_with_nobody_reading(backend: Backend) {
    let store = store_for(backend, None).await;
    let app = spawn_with(store.clone(), unlimited()).await;
    let (id, _) = app.create(four_bots(101)).await;
    let end = settled(&store, &id, Duration::from_secs(1), Duration::from_secs(60)).await;
    assert!(end > 64, "more than the create's own steps were played");
    assert_eq!(phase(&app, &id).await, "match_over");
    assert_eq!(stored(&store, &id).await, end, "the read wrote nothing");
}

async fn a_silent_seat_s_clock_fires_with_nobody_reading(backend: Backend) {
    let store = store_for(backend, None).await;
    let app = spawn_with(store.clone(), unlimited()).await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let body = json!({
        "seats": [{"kind": "remote"}, bot, bot, bot],
        "auto_deal": true,
        "move_timeout_ms": 200,
        "rules": {"target": 20, "max_hands": 3}
    });
    let (id, _) = app.create(body).await;
    let v0 = stored(&store, &id).await;
    let end = Instant::now() + Duration::from_secs(20);
    while stored(&store, &id).await == v0 {
        assert!(Instant::now() < end, "the silent seat's clock never fired");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Stand-in moves and the bots carry the match to its end.
    settled(&store, &id, Duration::from_secs(1), Duration::from_secs(60)).await;
    let view = app.get(&format!("/v1/matches/{id}"), None).await;
    assert!(
        view.json["phase"] == "match_over" || view.json["hand"]["hand_number"] == 3,
        "{}",
        view.text
    );
}

async fn reads_of_due_matches_write_nothing(backend: Backend) {
    let store = crate::backends::private_schedule_store(backend).await;
    // Without a scheduler, nothing but requests could write.
    let app = spawn_with(store.clone(), options(|o| o.scheduler.enabled = false)).await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let (clocked, tokens) = app
        .create(json!({"seats": [{}, bot, bot, bot], "move_timeout_ms": 100, "rules": {"first_dealer": 0}}))
        .await;
    let token = tokens[0].clone().expect("seat 0 is remote");
    let (bots, _) = app.create(four_bots(101)).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = (stored(&store, &clocked).await, stored(&store, &bots).await);
    for _ in 0..10 {
        for path in ["", "/legal-moves", "/history", "/events?after=0&limit=5"] {
            for (id, tok) in [(&clocked, Some(token.as_str())), (&bots, None)] {
                let r = app.get(&format!("/v1/matches/{id}{path}"), tok).await;
                assert!(
                    r.status.is_success() || r.status == 401,
                    "{path}: {}",
                    r.text
                );
            }
        }
    }
    let after = (stored(&store, &clocked).await, stored(&store, &bots).await);
    assert_eq!(after, before, "80 reads of due matches wrote nothing");
}

both_stores!(
    four_house_bots_play_to_the_end_with_nobody_reading,
    a_silent_seat_s_clock_fires_with_nobody_reading,
    reads_of_due_matches_write_nothing,
);

/// Two instances on one Redis: the one that plays a match is stopped
/// mid-match, the other finishes it, and every step is played once (the
/// log replays to the stored version: a step played twice would have lost
/// its compare-and-set).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_instance_takes_over_the_due_work_of_a_stopped_one() {
    let short = options(|o| o.scheduler.lease = Duration::from_millis(300));
    let store_a = store_for(Backend::Redis, None).await;
    let a = spawn_with(store_a.clone(), short.clone()).await;
    let (id, _) = a.create(four_bots(301)).await;
    let v0 = stored(&store_a, &id).await;
    let end = Instant::now() + Duration::from_secs(20);
    while stored(&store_a, &id).await < v0 + 100 {
        assert!(Instant::now() < end, "A never played");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(a);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mid = stored(&store_a, &id).await;
    let store_b = store_for(Backend::Redis, None).await;
    let b = spawn_with(store_b.clone(), short).await;
    let last = settled(
        &store_b,
        &id,
        Duration::from_secs(1),
        Duration::from_secs(90),
    )
    .await;
    assert!(last > mid, "B carried the match on from {mid}");
    assert_eq!(phase(&b, &id).await, "match_over");
    let history = b.get(&format!("/v1/matches/{id}/history"), None).await;
    assert_eq!(history.status, 200, "the log replays: {}", history.text);
}
