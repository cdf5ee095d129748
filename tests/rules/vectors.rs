//! The six Girona deals (tests/rules/data/udg-partides.json, BSD 2-Clause,
//! notice inside the file): three legal hands with the team points they
//! score, and three in which a player breaks a playing rule.

use botifarra::rules::{Match, RuleError, Suit};
use serde_json::Value;

use crate::helpers::{card, pairs_playing, play_action, refused};

fn vectors() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/rules/data/udg-partides.json"
    );
    let text =
        std::fs::read_to_string(path).expect("tests/rules/data/udg-partides.json is present");
    let v: Value = serde_json::from_str(&text).expect("valid JSON");
    assert!(
        v["source"]
            .as_str()
            .is_some_and(|s| s.contains("BSD 2-Clause")),
        "license notice kept"
    );
    v
}

fn deal_named(name: &str) -> Value {
    let v = vectors();
    let deals = v["deals"].as_array().expect("deals");
    deals
        .iter()
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("no deal {name}"))
        .clone()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_str().expect("string").to_string())
        .collect()
}

/// The deal set up in play: `leader` leads, the given trump, no doubling.
fn start(deal: &Value) -> Match {
    let leader = deal["leader"].as_u64().expect("leader") as u8;
    let hands: Vec<Vec<String>> = deal["hands"]
        .as_array()
        .expect("hands")
        .iter()
        .map(strings)
        .collect();
    let codes: Vec<Vec<&str>> = hands
        .iter()
        .map(|h| h.iter().map(String::as_str).collect())
        .collect();
    pairs_playing(
        leader,
        deal["trump"].as_str().expect("trump"),
        std::array::from_fn(|s| &codes[s][..]),
    )
}

/// Plays the deal until the listed first illegal card (if any); returns the
/// refusal and where it happened (1-based trick, seat, card).
fn run(deal: &Value) -> (Match, Option<(RuleError, usize, u8, String)>) {
    let mut m = start(deal);
    let stop = deal.get("first_illegal").map(|f| {
        (
            f["trick"].as_u64().expect("trick") as usize,
            f["seat"].as_u64().expect("seat") as u8,
        )
    });
    for (i, code) in strings(&deal["plays"]).iter().enumerate() {
        let seat = m.turn().expect("the match goes on");
        let trick = i / 4 + 1;
        if Some((trick, seat)) == stop {
            // The listed illegal card must be refused, changing nothing.
            let err = refused(&mut m, seat, play_action(code));
            return (m, Some((err, trick, seat, code.clone())));
        }
        let mut events = Vec::new();
        if let Err(e) = m.apply(seat, play_action(code), &mut events) {
            panic!(
                "{}: trick {trick}, seat {seat}, {code} refused: {e}",
                deal["name"]
            );
        }
    }
    (m, None)
}

fn assert_legal_deal(name: &str) {
    let deal = deal_named(name);
    let (m, refusal) = run(&deal);
    assert!(refusal.is_none());
    let expected: Vec<u8> = deal["team_points"]
        .as_array()
        .expect("points")
        .iter()
        .map(|p| p.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(m.results.len(), 1, "{name}: the hand is over");
    assert_eq!(m.results[0].points, expected, "{name}: team points");
    assert_eq!(expected.iter().map(|&p| u32::from(p)).sum::<u32>(), 72);
}

fn assert_illegal_deal(name: &str, reason: RuleError) {
    let deal = deal_named(name);
    let f = &deal["first_illegal"];
    let (_, refusal) = run(&deal);
    let (err, trick, seat, code) = refusal.unwrap_or_else(|| panic!("{name}: no card refused"));
    assert_eq!(trick as u64, f["trick"].as_u64().unwrap());
    assert_eq!(u64::from(seat), f["seat"].as_u64().unwrap());
    assert_eq!(
        code,
        f["card"].as_str().unwrap(),
        "{name}: the refused card is the listed one"
    );
    assert_eq!(err, reason, "{name}");
}

#[test]
fn girona_test1_oros_scores_31_41() {
    assert_legal_deal("test1");
}

#[test]
fn girona_test2_botifarra_scores_44_28() {
    assert_legal_deal("test2");
}

#[test]
fn girona_capot_bastos_scores_72_0() {
    assert_legal_deal("capot");
}

#[test]
fn girona_falla_de_gallina_trumps_while_holding_the_suit_led() {
    assert_illegal_deal("Falla de Gallina", RuleError::MustFollowSuit(Suit::Bastos));
}

#[test]
fn girona_refalla_de_gallina_overtrumps_while_holding_the_suit_led() {
    assert_illegal_deal(
        "Refalla de Gallina",
        RuleError::MustFollowSuit(Suit::Bastos),
    );
}

#[test]
fn girona_s_escapen_does_not_beat_the_opponent() {
    assert_illegal_deal("S'escapen", RuleError::MustBeat(card("11C")));
}

#[test]
fn all_six_girona_deals_are_checked() {
    let v = vectors();
    let names: Vec<&str> = v["deals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "test1",
            "test2",
            "capot",
            "Falla de Gallina",
            "Refalla de Gallina",
            "S'escapen"
        ]
    );
}
