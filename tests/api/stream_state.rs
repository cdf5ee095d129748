//! A match stream that opens with the caller's view (`with_state=true`):
//! the view and its event number from one read, then exactly the events
//! after it, redacted per seat, on the stream and on the long poll.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, card_strings, spawn_app};
use crate::backends::both_stores;
use crate::clock_stream::read_sse;

/// Opens `id`'s stream with its state, as `token` (a spectator without).
async fn open_with_state(app: &TestApp, id: &str, token: Option<&str>) -> reqwest::Response {
    let mut req = app.client.get(format!(
        "{}/v1/matches/{id}/stream?with_state=true",
        app.base
    ));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    resp
}

/// Plays up to `moves` actions, each seat its first legal one.
async fn play(app: TestApp, id: String, tokens: Vec<String>, moves: usize) {
    let mut made = 0;
    while made < moves {
        let mut moved = false;
        for t in &tokens {
            let v = app.get(&format!("/v1/matches/{id}"), Some(t)).await.json;
            if v["phase"] == "match_over" {
                return;
            }
            if let Some(a) = v["legal_actions"].get(0) {
                let r = app
                    .post(&format!("/v1/matches/{id}/actions"), Some(t), a.clone())
                    .await;
                moved |= r.status == StatusCode::OK;
                made += 1;
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
        if !moved {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// Checks one opening at version `v`, event `s`, followed by `after`
/// (event numbers and JSON) against the whole log `all` as seat 0 sees it.
fn check_follows(all: &[Value], v: u64, s: u64, after: &[(u64, Value)]) {
    for (i, (seq, e)) in after.iter().enumerate() {
        assert_eq!(*seq, s + 1 + i as u64, "no gap, no duplicate");
        assert_eq!(e, &all[*seq as usize - 1], "the event as the log has it");
    }
    for e in all {
        let (seq, version) = (e["seq"].as_u64().unwrap(), e["version"].as_u64());
        if let Some(version) = version {
            assert_eq!(
                seq <= s,
                version <= v,
                "event {seq} at version {version}, state {v}/{s}"
            );
        }
    }
}

async fn the_state_and_the_events_after_it_have_no_gap_while_moves_are_made(backend: Backend) {
    let app = spawn_app(backend).await;
    let body = json!({"rules": {"first_dealer": 0, "target": 100000}});
    let (id, tokens) = app.create(body).await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let mover = tokio::spawn(play(
        TestApp::external(app.base.clone()),
        id.clone(),
        tokens.clone(),
        400,
    ));
    let mut streamed = Vec::new();
    let mut polled = Vec::new();
    for _ in 0..6 {
        tokio::time::sleep(Duration::from_millis(30)).await;
        let frames = read_sse(open_with_state(&app, &id, Some(&tokens[0])).await, 4).await;
        let (s, kind, state) = &frames[0];
        assert_eq!(kind, "state");
        assert_eq!(state["last_seq"].as_u64(), Some(*s));
        let v = state["version"].as_u64().unwrap();
        let rest: Vec<(u64, Value)> = frames[1..]
            .iter()
            .map(|(q, _, d)| (*q, d.clone()))
            .collect();
        streamed.push((v, *s, rest));
        let path = format!("/v1/matches/{id}/events?with_state=true&wait_ms=2000");
        let page = app.get(&path, Some(&tokens[0])).await.json;
        let state = &page["state"];
        let (v, s) = (
            state["version"].as_u64().unwrap(),
            state["last_seq"].as_u64().unwrap(),
        );
        let rest = page["events"].as_array().unwrap().iter();
        let rest = rest
            .map(|e| (e["seq"].as_u64().unwrap(), e.clone()))
            .collect();
        polled.push((v, s, rest));
    }
    mover.await.unwrap();
    let log = app
        .get(
            &format!("/v1/matches/{id}/events?after=0"),
            Some(&tokens[0]),
        )
        .await
        .json;
    let all = log["events"].as_array().unwrap();
    let seqs: Vec<u64> = all.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
    let distinct: std::collections::BTreeSet<u64> = streamed.iter().map(|o| o.1).collect();
    assert!(
        distinct.len() >= 2,
        "the streams opened at different points: {distinct:?}"
    );
    for (v, s, after) in streamed.iter().chain(&polled) {
        check_follows(all, *v, *s, after);
    }
}

async fn a_seats_state_shows_only_its_own_cards(backend: Backend) {
    let app = spawn_app(backend).await;
    let (id, tokens) = app.create(json!({"rules": {"first_dealer": 0}})).await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let r = app
        .post(
            &format!("/v1/matches/{id}/deal"),
            Some(&tokens[0]),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mut hands = Vec::new();
    for t in &tokens {
        let v = app.get(&format!("/v1/matches/{id}"), Some(t)).await.json;
        let frames = read_sse(open_with_state(&app, &id, Some(t)).await, 1).await;
        let (s, kind, state) = &frames[0];
        assert_eq!(
            (kind.as_str(), *s),
            ("state", v["last_seq"].as_u64().unwrap())
        );
        assert_eq!(state, &v, "the state is the seat's view");
        let page = app
            .get(&format!("/v1/matches/{id}/events?with_state=true"), Some(t))
            .await
            .json;
        assert_eq!(page["state"], v);
        assert_eq!(page["events"], json!([]));
        let mut cards = Vec::new();
        card_strings(state, "$", &mut cards);
        let mut seen: Vec<String> = cards.into_iter().map(|(_, c)| c).collect();
        seen.sort();
        seen.dedup();
        let mut hand: Vec<String> = state["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_uppercase())
            .collect();
        hand.sort();
        assert_eq!(hand.len(), 12);
        assert_eq!(
            seen, hand,
            "a seat's state shows its own cards and no other"
        );
        hands.push(hand);
    }
    for (i, h) in hands.iter().enumerate() {
        for other in &hands[i + 1..] {
            assert!(h.iter().all(|c| !other.contains(c)));
        }
    }
    let frames = read_sse(open_with_state(&app, &id, None).await, 1).await;
    let mut cards = Vec::new();
    card_strings(&frames[0].2, "$", &mut cards);
    assert_eq!(cards, [], "a spectator's state shows no card");
    // The state opens a fresh stream only; a resume point is refused with it.
    let r = app
        .get(
            &format!("/v1/matches/{id}/events?with_state=true&after=1"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = app
        .get(
            &format!("/v1/matches/{id}/stream?with_state=true&after=1"),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let resumed = app
        .client
        .get(format!(
            "{}/v1/matches/{id}/stream?with_state=true",
            app.base
        ))
        .header("Last-Event-ID", "1")
        .send()
        .await
        .unwrap();
    let frames = read_sse(resumed, 1).await;
    assert_eq!((frames[0].0, frames[0].1.as_str()), (2, "hand_dealt"));
}

async fn a_finished_matchs_stream_with_state_sends_the_state_and_ends(backend: Backend) {
    let app = spawn_app(backend).await;
    let seats = json!([{"kind": "remote"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
    let body = json!({"rules": {"first_dealer": 0, "max_hands": 1}, "seats": seats});
    let (id, tokens) = app.create(body).await;
    let token = tokens[0].clone().unwrap();
    app.finish_match(&id, &token).await;
    let view = app
        .get(&format!("/v1/matches/{id}"), Some(&token))
        .await
        .json;
    let resp = open_with_state(&app, &id, Some(&token)).await;
    let body = tokio::time::timeout(Duration::from_secs(10), resp.text())
        .await
        .expect("the stream ends")
        .unwrap();
    let last = view["last_seq"].as_u64().unwrap();
    let head = format!("id: {last}\nevent: state\ndata: ");
    let data = body.strip_prefix(&head).expect(&body);
    let data = data.strip_suffix("\n\n").expect("one event, then the end");
    assert!(!data.contains('\n'), "one event: {body}");
    assert_eq!(serde_json::from_str::<Value>(data).unwrap(), view);
}

both_stores!(
    a_finished_matchs_stream_with_state_sends_the_state_and_ends,
    the_state_and_the_events_after_it_have_no_gap_while_moves_are_made,
    a_seats_state_shows_only_its_own_cards,
);
