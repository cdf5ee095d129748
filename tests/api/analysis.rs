//! `GET /v1/matches/{id}/analysis`: a finished match's cards valued by the
//! whole-hand solver, its bidding by the expert's bid search. Refused
//! before the match is over (and then it shows no card and no seed), `404`
//! for an unknown match, `202` with progress while computing, and, once
//! done, every solved card agrees with what this test recomputes with the
//! solver library from the public history, and every bidding decision of
//! the history with a choice is valued, in order.

use std::time::Duration;

use botifarra::bots::dds::DealSolver;
use botifarra::rules::{Action, Call, Card, Match, Move, Phase, Rules, Trump, TrumpChoice};
use botifarra::service::Limits;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, Reply, TestApp, card_strings, spawn_full, store_for, unlimited};
use crate::backends::both_stores;

/// The solver's budget per card here: the first tricks of a hand go past
/// it in a debug build (answered unsolved), the last ones never do.
const NODES_PER_CARD: u64 = 20_000;

/// The bid search's playouts per bidding decision here.
const PLAYOUTS_PER_BID: u32 = 40;

/// A server whose analyses run within [`NODES_PER_CARD`] and [`PLAYOUTS_PER_BID`].
async fn server(backend: Backend) -> TestApp {
    let limits = Limits {
        analysis_nodes_per_card: NODES_PER_CARD,
        analysis_playouts_per_bid: PLAYOUTS_PER_BID,
        ..Limits::default()
    };
    spawn_full(store_for(backend, None).await, unlimited(), limits, None).await
}

/// The matches each store's test plays: ten, so twenty in all; every
/// variant, with and without forced mode and must-trump.
const MATCHES: [(&str, &str); 10] = [
    ("pairs", ""),
    ("pairs", "forced"),
    ("pairs", "must_trump"),
    ("pairs", ""),
    ("abarrotada", ""),
    ("abarrotada", "must_trump"),
    ("abarrotada3", ""),
    ("abarrotada3", "must_trump"),
    ("pairs", "forced"),
    ("abarrotada", ""),
];

/// A one-hand match of `variant` with `option` on: seat 0 a client, the
/// others house bots; its id and seat 0's token.
async fn one_hand(app: &TestApp, variant: &str, option: &str, seed: u8) -> (String, String) {
    let seats = if variant == "abarrotada3" { 3 } else { 4 };
    let mut rules = json!({"variant": variant, "max_hands": 1});
    if !option.is_empty() {
        rules[option] = json!(true);
    }
    let mut spec = vec![json!({"kind": "remote"})];
    spec.extend((1..seats).map(|_| json!({"kind": "bot", "bot": "heuristic"})));
    let (id, tokens) = app
        .create(json!({
            "rules": rules,
            "seats": spec,
            "auto_deal": true,
            "seed": hex::encode([seed; 32]),
        }))
        .await;
    (id, tokens[0].clone().expect("seat 0's token"))
}

fn path(id: &str) -> String {
    format!("/v1/matches/{id}/analysis")
}

/// Asks until the analysis is done, checking each `202` on the way.
async fn analysis_done(app: &TestApp, id: &str) -> Value {
    for _ in 0..3000 {
        let r = app.get(&path(id), None).await;
        if r.status == StatusCode::OK {
            assert_eq!(r.json["status"], "done", "{}", r.text);
            return r.json;
        }
        assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
        assert_eq!(r.json["status"], "computing");
        assert!(r.json["hands"].as_array().unwrap().is_empty(), "{}", r.text);
        let (done, total) = (&r.json["progress"]["done"], &r.json["progress"]["total"]);
        assert!(done.as_u64() <= total.as_u64(), "{}", r.text);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the analysis of {id} never finished");
}

fn parse<T: serde::de::DeserializeOwned>(v: &Value) -> T {
    serde_json::from_value(v.clone()).expect("parses")
}

/// The moves of one hand of a public history record.
fn hand_moves(hand: &Value) -> Vec<Move> {
    let seat = |v: &Value| v.as_u64().expect("a seat") as u8;
    let mut moves = vec![Move::Act(seat(&hand["dealer"]), Action::Deal)];
    for c in hand["choices"].as_array().unwrap() {
        let choice: TrumpChoice = parse(&c["choice"]);
        moves.push(Move::Act(seat(&c["seat"]), Action::Trump { choice }));
    }
    for c in hand["calls"].as_array().unwrap() {
        let call: Call = parse(&c["call"]);
        moves.push(Move::Act(seat(&c["seat"]), Action::Double { call }));
    }
    for t in hand["tricks"].as_array().unwrap() {
        for c in t["cards"].as_array().unwrap() {
            let card: Card = parse(&c["card"]);
            moves.push(Move::Act(seat(&c["seat"]), Action::Play { card }));
        }
    }
    moves
}

/// Checks every card of the analysis against a fresh solver's values of
/// the same position, rebuilt from the public history; the number of
/// cards solved.
fn check_against_the_solver(history: &Value, analysis: &Value) -> usize {
    let rules: Rules = serde_json::from_value(history["rules"].clone()).unwrap();
    let seed: [u8; 32] = hex::decode(history["seed"].as_str().expect("the seed, at the end"))
        .unwrap()
        .try_into()
        .unwrap();
    let mut game = Match::new(rules.clone(), seed).unwrap();
    let (hands, valued) = (
        history["hands"].as_array().unwrap(),
        analysis["hands"].as_array().unwrap(),
    );
    assert_eq!(hands.len(), valued.len());
    assert_eq!(analysis["hands_played"], hands.len());
    let mut solved = 0;
    for (hand, valued) in hands.iter().zip(valued) {
        let cards = valued["cards"].as_array().unwrap();
        let mut next = cards.iter();
        let mut bids = valued["bids"].as_array().unwrap().iter();
        for mv in hand_moves(hand) {
            if let Move::Act(seat, action) = mv
                && matches!(game.phase(), Phase::ChoosingTrump | Phase::Doubling)
            {
                let legal = game.legal_actions(seat);
                if legal.len() >= 2 {
                    let got = bids.next().expect("a value for every bidding decision");
                    bid_agrees(seat, action, &legal, got);
                }
            }
            if let Move::Act(seat, Action::Play { card }) = mv {
                let got = next.next().expect("a value for every card played");
                assert_eq!(got["card"], card.to_string());
                assert_eq!(got["seat"], seat);
                if got["solved"] == true {
                    let h = game.hand.as_ref().unwrap();
                    let values = DealSolver::new(&rules).solve_each(h).unwrap();
                    agrees(&values, card, got);
                    solved += 1;
                } else {
                    assert!(got["value"].is_null() && got["cost"].is_null(), "{got}");
                }
            }
            game.perform(mv, &mut Vec::new())
                .expect("the history replays");
        }
        assert!(next.next().is_none(), "no value for a card never played");
        assert!(bids.next().is_none(), "no value for a decision never made");
        let trump: Option<Trump> = serde_json::from_value(valued["trump"].clone()).unwrap();
        assert_eq!(trump, game.history.last().unwrap().trump);
    }
    solved
}

/// The server's values of one card against the solver's.
fn agrees(values: &[(Card, i32)], played: Card, got: &Value) {
    let value = values.iter().find(|(c, _)| *c == played).unwrap().1;
    let best = values.iter().map(|v| v.1).max().unwrap();
    let best_cards: Vec<String> = values
        .iter()
        .filter(|v| v.1 == best)
        .map(|v| v.0.to_string())
        .collect();
    assert_eq!(got["value"], value, "{got}");
    assert_eq!(got["best"], best, "{got}");
    assert_eq!(got["cost"], best - value, "{got}");
    assert_eq!(got["best_cards"], json!(best_cards), "{got}");
}

/// A bidding decision's values: for `seat`'s `action` among `legal`, every
/// legal action but an Estevet tried, the best and the cost consistent.
fn bid_agrees(seat: u8, action: Action, legal: &[Action], got: &Value) {
    assert_eq!(got["seat"], seat, "{got}");
    let phase = if matches!(action, Action::Trump { .. }) {
        "trump"
    } else {
        "double"
    };
    assert_eq!(got["phase"], phase, "{got}");
    assert_eq!(parse::<Action>(&got["action"]), action, "{got}");
    let estevet = Action::Trump {
        choice: TrumpChoice::Estevet,
    };
    let values = got["values"].as_array().unwrap();
    let tried: Vec<Action> = values.iter().map(|v| parse(&v["action"])).collect();
    let want: Vec<Action> = legal.iter().copied().filter(|a| *a != estevet).collect();
    assert_eq!(tried, want, "{got}");
    let deals = got["deals"].as_u64().unwrap() as usize;
    assert!(
        deals >= 1 && deals * tried.len() <= PLAYOUTS_PER_BID as usize,
        "{got}"
    );
    let number = |v: &Value| v.as_f64().expect("a number");
    let best = values
        .iter()
        .map(|v| number(&v["value"]))
        .fold(f64::MIN, f64::max);
    assert_eq!(number(&got["best"]), best, "{got}");
    let best_actions: Vec<&Value> = values
        .iter()
        .filter(|v| number(&v["value"]) == best)
        .map(|v| &v["action"])
        .collect();
    assert_eq!(
        got["best_actions"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        best_actions
    );
    if action == estevet {
        assert!(got["value"].is_null() && got["cost"].is_null(), "{got}");
        return;
    }
    let taken = values
        .iter()
        .find(|v| v["action"] == got["action"])
        .unwrap();
    assert_eq!(got["value"], taken["value"], "{got}");
    let cost = number(&got["cost"]);
    assert!(
        cost >= 0.0 && (best - number(&got["value"]) - cost).abs() < 1e-9,
        "{got}"
    );
}

/// The bidding decisions the analysis valued.
fn bids_valued(analysis: &Value) -> usize {
    let hands = analysis["hands"].as_array().unwrap();
    hands
        .iter()
        .map(|h| h["bids"].as_array().unwrap().len())
        .sum()
}

/// The cost of each seat's cards, summed by the server, is the sum of its cards'.
fn costs_add_up(analysis: &Value) {
    for hand in analysis["hands"].as_array().unwrap() {
        let by_seat = hand["cost_by_seat"].as_array().unwrap();
        for (seat, total) in by_seat.iter().enumerate() {
            let sum: u64 = hand["cards"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["seat"] == seat)
                .filter_map(|c| c["cost"].as_u64())
                .sum();
            assert_eq!(total.as_u64(), Some(sum), "seat {seat}: {hand}");
        }
    }
}

/// Never served before the match is over, and then nothing hidden shows.
fn refused_before_the_end(r: &Reply, seed: u8) {
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "match_not_over", "{}", r.text);
    assert!(
        r.json.get("hands").is_none() && r.json.get("bids").is_none(),
        "{}",
        r.text
    );
    let mut cards = Vec::new();
    card_strings(&r.json, "$", &mut cards);
    assert!(cards.is_empty(), "a refusal shows cards: {cards:?}");
    assert!(!r.text.contains(&hex::encode([seed; 32])), "{}", r.text);
}

/// Acts for seat 0 until the hand's bidding is over (its values would
/// show how strong each hand was).
async fn past_the_bidding(app: &TestApp, id: &str, token: &str) {
    let path = format!("/v1/matches/{id}");
    for _ in 0..200 {
        let view = app.get(&path, Some(token)).await;
        if view.json["phase"] == "playing" {
            return;
        }
        match view.json["legal_actions"].get(0) {
            Some(action) => {
                let actions = format!("{path}/actions");
                let r = app.post(&actions, Some(token), action.clone()).await;
                assert_eq!(r.status, StatusCode::OK, "{}", r.text);
            }
            None => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    panic!("the bidding of {id} did not end");
}

async fn every_card_agrees_with_the_solver(backend: Backend) {
    let app = server(backend).await;
    let mut solved = 0;
    for (seed, (variant, option)) in (10..).zip(MATCHES) {
        let (id, token) = one_hand(&app, variant, option, seed).await;
        refused_before_the_end(&app.get(&path(&id), None).await, seed);
        refused_before_the_end(&app.get(&path(&id), Some(&token)).await, seed);
        past_the_bidding(&app, &id, &token).await;
        refused_before_the_end(&app.get(&path(&id), Some(&token)).await, seed);
        app.finish_match(&id, &token).await;
        let analysis = analysis_done(&app, &id).await;
        let history = app.get(&format!("/v1/matches/{id}/history"), None).await;
        let n = check_against_the_solver(&history.json, &analysis);
        let bids = bids_valued(&analysis);
        assert!(bids >= 1, "the trump choice at least: {analysis}");
        assert_eq!(
            analysis["unsolved"].as_u64().unwrap() as usize + n + bids,
            analysis["progress"]["total"].as_u64().unwrap() as usize
        );
        costs_add_up(&analysis);
        // Kept: the next read answers the same at once.
        let again = app.get(&path(&id), Some(&token)).await;
        assert_eq!(again.status, StatusCode::OK);
        assert_eq!(again.json, analysis);
        solved += n;
    }
    let least = MATCHES.len() * 3 * 4;
    assert!(
        solved >= least,
        "the last tricks are always solved: {solved}"
    );
}

async fn unknown_match_and_wrong_token_are_refused(backend: Backend) {
    let app = server(backend).await;
    let r = app.get(&path("no-such-match"), None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    assert_eq!(r.json["code"], "match_not_found");
    assert_eq!(r.content_type, "application/problem+json", "{r:?}");
    let (id, token) = one_hand(&app, "pairs", "", 3).await;
    app.finish_match(&id, &token).await;
    let r = app.get(&path(&id), Some("wrong-token")).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    // The first read starts the computation: `202` with `Retry-After`.
    let url = format!("{}{}", app.base, path(&id));
    let first = app.client.get(url).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::ACCEPTED);
    assert_eq!(first.headers()["retry-after"], "2");
    let body: Value = first.json().await.unwrap();
    assert_eq!(body["status"], "computing", "{body}");
    // Every card and every bidding decision (the trump choice at least).
    assert!(body["progress"]["total"].as_u64() > Some(48), "{body}");
    assert_eq!(body["budget"]["nodes_per_card"], NODES_PER_CARD);
    let per_match = Limits::default().analysis_nodes_per_match;
    assert_eq!(body["budget"]["nodes_per_match"], per_match);
    assert_eq!(body["budget"]["playouts_per_bid"], PLAYOUTS_PER_BID);
}

both_stores!(
    every_card_agrees_with_the_solver,
    unknown_match_and_wrong_token_are_refused
);
