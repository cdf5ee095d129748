//! The contract a generated client relies on: a listed action posts
//! unchanged, every event carries the version its move produced and every
//! view the number of the last event, so that a client can follow a match
//! from its events alone; records stored before these existed still load.

use std::sync::Arc;

use botifarra::store::{MatchStore, MemoryStore};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, spawn_app, spawn_with_store};

fn remote4() -> Value {
    json!({"rules": {"first_dealer": 0, "max_hands": 1}, "seats": [{}, {}, {}, {}]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listed_action_posts_unchanged_and_the_wrapped_shape_is_refused() {
    let app = spawn_app(Backend::Memory).await;
    let (id, tokens) = app.create(remote4()).await;
    let dealer = tokens[0].as_deref().unwrap();
    let path = format!("/v1/matches/{id}");
    let view = app.get(&path, Some(dealer)).await.json;
    let listed = view["legal_actions"][0].clone();
    assert_eq!(listed, json!({"type": "deal"}));
    // The shape an older document described: refused, and nothing changes.
    let wrapped = json!({"action": listed, "expected_version": 0});
    let r = app
        .post(&format!("{path}/actions"), Some(dealer), wrapped)
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(r.json["code"], "invalid_request");
    assert!(
        r.json["detail"].as_str().unwrap().contains("type"),
        "{}",
        r.text
    );
    assert_eq!(app.get(&path, None).await.json["version"], 0);
    // The listed action with the guard beside its fields.
    let mut guarded = listed.clone();
    guarded["expected_version"] = json!(0);
    let r = app
        .post(&format!("{path}/actions"), Some(dealer), guarded)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["version"], 1);
    // Each listed action of the next seat, posted exactly as listed.
    let chooser = app.get(&path, None).await.json["turn"].as_u64().unwrap() as usize;
    let token = tokens[chooser].as_deref().unwrap();
    let listed = app.get(&path, Some(token)).await.json["legal_actions"][0].clone();
    assert_eq!(listed["type"], "trump");
    let r = app
        .post(&format!("{path}/actions"), Some(token), listed)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_event_carries_its_version_and_every_view_the_last_event_number() {
    let app = spawn_app(Backend::Memory).await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let (id, tokens) = app
        .create(json!({"rules": {"max_hands": 1}, "seats": [{}, bot, bot, bot], "auto_deal": true}))
        .await;
    let token = tokens[0].as_deref().unwrap();
    let path = format!("/v1/matches/{id}");
    for _ in 0..100 {
        let view = app.get(&path, Some(token)).await.json;
        let page = app.get(&format!("{path}/events"), Some(token)).await.json;
        let events = page["events"].as_array().unwrap();
        let last = events.last().unwrap();
        // The view has seen exactly the events up to its last_seq, the
        // last of them made by the move that produced its version.
        assert_eq!(view["last_seq"], page["last_seq"]);
        assert_eq!(view["last_seq"], last["seq"]);
        assert_eq!(view["version"], last["version"]);
        assert_eq!(view["turn"], last["turn"]);
        let moves = app
            .get(&format!("{path}/legal-moves"), Some(token))
            .await
            .json;
        assert_eq!(
            (&moves["version"], &moves["last_seq"]),
            (&view["version"], &view["last_seq"])
        );
        // Versions start at 0 and never go back; a bot's move and its
        // events share one.
        assert_eq!(events[0]["version"], 0);
        for w in events.windows(2) {
            assert!(
                w[0]["version"].as_u64() <= w[1]["version"].as_u64(),
                "{w:?}"
            );
            if w[0]["type"] == "bot_acted" {
                assert_eq!(w[0]["version"], w[1]["version"], "{w:?}");
            }
        }
        if view["phase"] == "match_over" {
            assert_eq!(last["type"], "match_over");
            assert_eq!(last["turn"], Value::Null);
            return;
        }
        let action = view["legal_actions"][0].clone();
        let r = app
            .post(&format!("{path}/actions"), Some(token), action)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        // The answer's view is as fresh as a read.
        let again = app.get(&path, Some(token)).await.json;
        assert_eq!(r.json["last_seq"], again["last_seq"]);
    }
    panic!("the match did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_follows_a_match_from_its_events_alone() {
    // Four remote seats, one client: it reads only the events (as a
    // spectator) and, when an event says a seat is to act, asks that
    // seat's legal moves once and posts the first, guarded by the version.
    let app = spawn_app(Backend::Memory).await;
    let (id, tokens) = app
        .create(json!({"rules": {"target": 20, "max_hands": 2}, "seats": [{}, {}, {}, {}], "auto_deal": true}))
        .await;
    let path = format!("/v1/matches/{id}");
    let (mut after, mut acted_at) = (0u64, None);
    let (mut moves, mut deals, mut requests) = (0u64, 0u64, 0u64);
    let scores: Value;
    'follow: loop {
        let page = app
            .get(&format!("{path}/events?after={after}&wait_ms=2000"), None)
            .await
            .json;
        requests += 1;
        for e in page["events"].as_array().unwrap() {
            after = e["seq"].as_u64().unwrap();
            deals += u64::from(e["type"] == "hand_dealt");
            if e["type"] == "match_over" {
                scores = e["scores"].clone();
                break 'follow;
            }
            let version = e["version"].as_u64().unwrap();
            let Some(seat) = e["turn"].as_u64() else {
                continue;
            };
            if acted_at.is_some_and(|v| v >= version) {
                continue;
            }
            // Only the last event of a move can hand the turn on for good.
            if page["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["version"].as_u64() > Some(version))
            {
                continue;
            }
            let token = tokens[seat as usize].as_deref();
            let legal = app.get(&format!("{path}/legal-moves"), token).await.json;
            assert_eq!(
                legal["version"], version,
                "the event's version is the match's"
            );
            let mut action = legal["actions"][0].clone();
            action["expected_version"] = json!(version);
            let r = app.post(&format!("{path}/actions"), token, action).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
            requests += 2;
            moves += 1;
            acted_at = Some(version);
        }
        assert!(requests < 5000, "the client is lost");
    }
    let view = app.get(&path, None).await.json;
    assert_eq!(view["phase"], "match_over");
    assert_eq!(view["scores"], scores);
    // One version per move: the client's and the server's automatic deals.
    assert_eq!(view["version"], moves + deals);
    assert_eq!(view["last_seq"], after);
    // Two requests per move, and a poll per move at most.
    assert!(
        requests <= 3 * moves + 2,
        "{requests} requests for {moves} moves"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_stored_before_versions_and_event_numbers_were_kept_still_loads() {
    let store: Arc<dyn MatchStore> = Arc::new(MemoryStore::new());
    let app = spawn_with_store(Arc::clone(&store)).await;
    let (id, tokens) = app.create(remote4()).await;
    let token = tokens[0].as_deref().unwrap();
    let r = app
        .post(&format!("/v1/matches/{id}/deal"), Some(token), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // The same match as an older server stored it: no `last_seq` in the
    // record, no `version` or `turn` in the events.
    let snap = store.load(&id).await.unwrap().unwrap();
    let mut state: Value = serde_json::from_str(&snap.state).unwrap();
    state.as_object_mut().unwrap().remove("last_seq");
    state["id"] = json!("legacy");
    let events: Vec<String> = store
        .events_after(&id, 0, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|(_, e)| {
            let mut v: Value = serde_json::from_str(&e).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("version");
            o.remove("turn");
            v.to_string()
        })
        .collect();
    assert_eq!(events.len(), 2);
    assert!(
        store
            .create("legacy", snap.version, &state.to_string(), &events)
            .await
            .unwrap()
    );
    let view = app.get("/v1/matches/legacy", Some(token)).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    assert_eq!(view.json["last_seq"], 2);
    let page = app.get("/v1/matches/legacy/events", Some(token)).await.json;
    assert_eq!(page["events"][1]["type"], "hand_dealt");
    assert!(page["events"][1].get("version").is_none());
    assert!(page["events"][1].get("turn").is_none());
    // Its next move is recorded the new way, numbered on from the old.
    let chooser = view.json["turn"].as_u64().unwrap() as usize;
    let t = tokens[chooser].as_deref();
    let r = app
        .post(
            "/v1/matches/legacy/trump",
            t,
            json!({"choice": "botifarra"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["last_seq"], 3);
    let page = app
        .get("/v1/matches/legacy/events?after=2", None)
        .await
        .json;
    assert_eq!(page["events"][0]["version"], 2);
    assert_eq!(page["events"][0]["seq"], 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guards_that_disagree_are_a_version_conflict_and_whole_numbers_may_be_floats() {
    let app = spawn_app(Backend::Memory).await;
    let (id, tokens) = app.create(remote4()).await;
    let dealer = tokens[0].as_deref();
    let path = format!("/v1/matches/{id}/actions");
    for (if_match, body) in [("\"0\"", 5), ("\"5\"", 0)] {
        let r = app
            .send(
                reqwest::Method::POST,
                &path,
                dealer,
                Some(json!({"type": "deal", "expected_version": body})),
                &[("If-Match", if_match)],
            )
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
        assert_eq!(r.json["code"], "version_conflict");
        assert_eq!(r.json["current_version"], 0);
    }
    assert_eq!(
        app.get(&format!("/v1/matches/{id}"), None).await.json["version"],
        0
    );
    // JSON Schema's integers include `0.0`; a fraction is refused.
    let r = app
        .post(
            &path,
            dealer,
            json!({"type": "deal", "expected_version": 0.5}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    let r = app
        .post(
            &path,
            dealer,
            json!({"type": "deal", "expected_version": 0.0, "seat": 0.0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}
