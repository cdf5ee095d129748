//! The scheduler: matches move with nobody reading, reads never write, and
//! two instances on one store play each step once, one taking over from
//! the other.

use std::sync::Arc;
use std::time::Duration;

use botifarra::http::ServeOptions;
use botifarra::rules::Phase;
use botifarra::service::{Limits, MatchRecord, Service};
use botifarra::store::MatchStore;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::app::{Backend, TestApp, spawn_with, store_for, unlimited};
use crate::backends::{both_stores, store_sharing};

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

/// Waits, reading the store only (through a service that runs no
/// scheduler), until match `id` is over; its version then.
async fn over(store: &Arc<dyn MatchStore>, id: &str, within: Duration) -> u64 {
    until(store, id, within, |rec| {
        rec.game.phase() == Phase::MatchOver
    })
    .await
}

/// Waits, reading the store only, until `done` holds for match `id`; its
/// version then.
async fn until(
    store: &Arc<dyn MatchStore>,
    id: &str,
    within: Duration,
    done: impl Fn(&MatchRecord) -> bool,
) -> u64 {
    let reader = Service::new(Arc::clone(store), Limits::default()).expect("a reader");
    let end = Instant::now() + within;
    loop {
        let rec = reader.record(id).await.expect("stored");
        if done(&rec) {
            return rec.version;
        }
        assert!(
            Instant::now() < end,
            "match {id} not over at version {}",
            rec.version
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
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
    let (id, _) = app.create(four_bots(1000)).await;
    let end = over(&store, &id, Duration::from_secs(60)).await;
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
    // Stand-in moves and the bots carry the match to its end (or to its
    // hand cap).
    let end = until(&store, &id, Duration::from_secs(60), |rec| {
        rec.game.phase() == Phase::MatchOver
            || (rec.game.phase() == Phase::AwaitingDeal && rec.game.hands_dealt >= 3)
    })
    .await;
    assert!(end > v0 + 40, "the seat's clock fired again and again");
}

async fn reads_of_due_matches_write_nothing(backend: Backend) {
    let store = store_for(backend, None).await;
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
    let name = format!("test:due:takeover:{}", std::process::id());
    let store_a = store_sharing(Backend::Redis, &name).await;
    let a = spawn_with(store_a.clone(), short.clone()).await;
    let (id, _) = a.create(four_bots(3000)).await;
    let v0 = stored(&store_a, &id).await;
    let end = Instant::now() + Duration::from_secs(20);
    while stored(&store_a, &id).await < v0 + 100 {
        assert!(Instant::now() < end, "A never played");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(a);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mid = stored(&store_a, &id).await;
    let store_b = store_sharing(Backend::Redis, &name).await;
    let b = spawn_with(store_b.clone(), short).await;
    let last = over(&store_b, &id, Duration::from_secs(90)).await;
    assert!(last > mid, "B carried the match on from {mid}");
    assert_eq!(phase(&b, &id).await, "match_over");
    let history = b.get(&format!("/v1/matches/{id}/history"), None).await;
    assert_eq!(history.status, 200, "the log replays: {}", history.text);
}
