//! Whole matches over real HTTP, on both stores, checking at every response
//! that no seat learns a card another seat still holds, nor the seed early.

use std::collections::HashSet;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::app::{Backend, card_strings, spawn_app};
use crate::backends::both_stores;

/// Fails when any card in `body` (seen by `viewer`) is still held by another seat.
fn assert_no_hidden_cards(
    body: &Value,
    viewer: Option<usize>,
    held: &[HashSet<String>],
    what: &str,
) {
    let mut found = Vec::new();
    card_strings(body, "$", &mut found);
    for (path, card) in found {
        // The card turned to draw the first dealer comes from its own shuffle,
        // not from the deal: it tells nothing of anyone's hand.
        if path == "$.first_dealer_card" {
            continue;
        }
        for (seat, cards) in held.iter().enumerate() {
            if Some(seat) != viewer && cards.contains(&card) {
                panic!(
                    "{what}: viewer {viewer:?} sees {card} at {path}, still held by seat {seat}"
                );
            }
        }
    }
}

fn assert_no_seed(body: &Value, seed_hex: &str, what: &str) {
    assert!(
        body.get("seed").is_none(),
        "{what} shows the seed before the match is over"
    );
    assert!(
        !body.to_string().contains(seed_hex),
        "{what} leaks the seed"
    );
}

/// Plays a whole match in which every seat is remote, driven only by the
/// `legal_actions` of the views, checking every response for leaks.
async fn remote_seats_play_a_whole_match(backend: Backend, rules: Value, seats: usize) {
    let app = spawn_app(backend).await;
    // A known seed, so that every body can be searched for it.
    let seed_hex = "5e".repeat(32);
    let (id, tokens) = app.create(json!({"rules": rules, "seed": seed_hex})).await;
    let tokens: Vec<String> = tokens
        .into_iter()
        .map(|t| t.expect("remote seat token"))
        .collect();
    assert_eq!(tokens.len(), seats);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut last_seq = vec![0u64; seats + 1];
    for step in 0..5000 {
        // Every seat's own view tells what it holds.
        let mut views = Vec::new();
        for t in &tokens {
            let r = app.get(&format!("/v1/matches/{id}"), Some(t)).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
            views.push(r.json);
        }
        let held: Vec<HashSet<String>> = views
            .iter()
            .map(|v| {
                v["hand"]
                    .as_array()
                    .expect("own hand")
                    .iter()
                    .map(|c| c.as_str().unwrap().to_string())
                    .collect()
            })
            .collect();
        let over = views[0]["phase"] == "match_over";
        // What every viewer sees, checked against what the others hold.
        for (viewer, seen) in last_seq.iter_mut().enumerate() {
            let token = tokens.get(viewer).map(String::as_str);
            let who = (viewer < seats).then_some(viewer);
            // The seats' own views were read above; the spectator's is new.
            let view = match views.get(viewer) {
                Some(v) => v.clone(),
                None => app.get(&format!("/v1/matches/{id}"), token).await.json,
            };
            let events = app
                .get(&format!("/v1/matches/{id}/events?after={seen}"), token)
                .await
                .json;
            let mut history = app
                .get(&format!("/v1/matches/{id}/history"), token)
                .await
                .json;
            // Finished hands are revealed on purpose; check the one in progress.
            if let Some(hands) = history["hands"].as_array_mut() {
                hands.retain(|h| h["result"].is_null());
                assert!(hands.len() <= 1, "at most one hand is in progress");
            }
            for (what, body) in [("view", &view), ("events", &events), ("history", &history)] {
                assert_no_hidden_cards(body, who, &held, what);
                if !over {
                    assert_no_seed(body, &seed_hex, what);
                }
            }
            for e in events["events"].as_array().expect("events") {
                assert!(e.get("hands").is_none(), "an event carries every hand: {e}");
            }
            *seen = events["last_seq"].as_u64().expect("last_seq");
        }
        if over {
            let v = &views[0];
            assert!(
                !v["winner"].is_null(),
                "a finished match has a winner or a draw"
            );
            let seed = v["seed"].as_str().expect("the seed is revealed at the end");
            assert_eq!(seed, seed_hex);
            let digest = hex::encode(Sha256::digest(hex::decode(seed).unwrap()));
            assert_eq!(v["seed_sha256"].as_str().unwrap(), digest);
            for h in v["hands"].as_array().unwrap() {
                if h["forfeit"].is_null() {
                    let pts: u64 = h["points"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p.as_u64().unwrap())
                        .sum();
                    assert_eq!(pts, 72, "each hand totals 72");
                }
            }
            return;
        }
        let turn = views[0]["turn"].as_u64().expect("a seat to act") as usize;
        let legal = app
            .get(
                &format!("/v1/matches/{id}/legal-moves"),
                Some(&tokens[turn]),
            )
            .await;
        let actions = legal.json["actions"].as_array().expect("actions").clone();
        assert!(
            !actions.is_empty(),
            "step {step}: the seat to act has no legal action"
        );
        assert_eq!(
            actions,
            views[turn]["legal_actions"].as_array().unwrap().clone()
        );
        let action = actions[rng.random_range(0..actions.len())].clone();
        let r = app
            .post(
                &format!("/v1/matches/{id}/actions"),
                Some(&tokens[turn]),
                action.clone(),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{action} refused: {}", r.text);
        assert_eq!(r.json["you"], json!(turn));
    }
    panic!("the match did not end");
}

/// One remote seat against three house bots plays a match to its end.
async fn one_seat_against_three_house_bots_reaches_the_end(backend: Backend) {
    let app = spawn_app(backend).await;
    let body = json!({"seats": [{"kind": "remote"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}], "auto_deal": true});
    let (id, tokens) = app.create(body).await;
    let token = tokens[0].clone().expect("seat 0 token");
    assert!(
        tokens[1..].iter().all(Option::is_none),
        "bot seats get no token"
    );
    for posted in 0..2000 {
        let v = app
            .get(&format!("/v1/matches/{id}"), Some(&token))
            .await
            .json;
        assert_eq!(v["you"], json!(0));
        if v["phase"] == "match_over" {
            assert!(!v["winner"].is_null());
            assert!(v["seed"].is_string());
            assert!(posted > 0);
            let mut all = Vec::new();
            loop {
                let path = format!("/v1/matches/{id}/events?after={}&limit=500", all.len());
                let page = app.get(&path, Some(&token)).await.json;
                let events = page["events"].as_array().unwrap().clone();
                if events.is_empty() {
                    break;
                }
                all.extend(events);
                assert_eq!(
                    all.last().unwrap()["seq"].as_u64(),
                    Some(all.len() as u64),
                    "seq numbers are 1, 2, 3, …"
                );
            }
            let kinds: Vec<&str> = all.iter().map(|e| e["type"].as_str().unwrap()).collect();
            assert!(kinds.contains(&"bot_acted"));
            assert_eq!(kinds.last(), Some(&"match_over"));
            for e in all.iter().filter(|e| e["type"] == "hand_dealt") {
                assert_eq!(
                    e["cards"].as_array().unwrap().len(),
                    12,
                    "own cards only: {e}"
                );
            }
            return;
        }
        let actions = v["legal_actions"].as_array().expect("legal_actions");
        assert!(
            !actions.is_empty(),
            "with auto_deal and bots, it is always seat 0's turn until the end"
        );
        let r = app
            .post(
                &format!("/v1/matches/{id}/actions"),
                Some(&token),
                actions[0].clone(),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    panic!("the match did not end");
}

/// The typed endpoints (`/deal`, `/trump`, `/double`, `/play`) act like
/// posting the same action to `/actions`: a whole hand played through them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_endpoints_play_a_whole_hand() {
    let app = spawn_app(Backend::Memory).await;
    let (id, tokens) = app
        .create(json!({"rules": {"first_dealer": 0, "max_hands": 1}}))
        .await;
    let mut used = HashSet::new();
    for _ in 0..200 {
        let v = app.get(&format!("/v1/matches/{id}"), None).await.json;
        if v["phase"] == "match_over" {
            for kind in ["deal", "trump", "double", "play"] {
                assert!(used.contains(kind), "{kind} was never posted: {used:?}");
            }
            return;
        }
        let seat = v["turn"].as_u64().expect("a seat to act") as usize;
        let token = tokens[seat].clone().expect("remote seat");
        let own = app
            .get(&format!("/v1/matches/{id}"), Some(&token))
            .await
            .json;
        // Pass rather than double, so that the hand is played.
        let actions = own["legal_actions"].as_array().unwrap();
        let action = actions
            .iter()
            .find(|a| a["call"] == "pass")
            .unwrap_or(&actions[0]);
        let kind = action["type"].as_str().unwrap().to_string();
        let mut body = action.clone();
        body.as_object_mut().unwrap().remove("type");
        let r = app
            .post(&format!("/v1/matches/{id}/{kind}"), Some(&token), body)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{kind} {action}: {}", r.text);
        assert_eq!(r.json["version"], v["version"].as_u64().unwrap() + 1);
        used.insert(kind);
    }
    panic!("the hand did not end");
}

/// Four remote seats play a whole match of the pairs game to 51.
async fn four_remote_seats_play_a_whole_match(backend: Backend) {
    remote_seats_play_a_whole_match(backend, json!({"target": 51}), 4).await;
}

/// Four and three remote seats play the individual variants to the end.
async fn abarrotada_matches_play_to_the_end_without_leaks(backend: Backend) {
    remote_seats_play_a_whole_match(backend, json!({"variant": "abarrotada", "max_hands": 3}), 4)
        .await;
    remote_seats_play_a_whole_match(
        backend,
        json!({"variant": "abarrotada3", "max_hands": 3}),
        3,
    )
    .await;
}

both_stores!(
    four_remote_seats_play_a_whole_match,
    one_seat_against_three_house_bots_reaches_the_end,
    abarrotada_matches_play_to_the_end_without_leaks,
);
