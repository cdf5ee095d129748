//! Checks a match's `/history` against the engine and against the moves
//! the client itself made.
//!
//! - The moves are read back from the history (deal, trump-phase choices,
//!   every doubling call, every card; a resignation where a hand was
//!   forfeited).
//! - The moves of the seats the client played must be exactly the moves it
//!   posted and saw accepted, in order: nothing lost, nothing doubled.
//! - For a finished match (seed revealed), `Match::replay(rules, seed,
//!   moves)` must rebuild the very same record: every deal, every hand's
//!   points, recorded points and multiplier, the totals and the winner.
//! - For a match still going on, every finished hand's recorded points must
//!   add up to the totals.

use botifarra::rules::{Action, Match, Move, Rules, Seat};
use serde_json::Value;
use sha2::{Digest, Sha256};

fn seat_of(v: &Value) -> Result<Seat, String> {
    v.as_u64()
        .and_then(|s| Seat::try_from(s).ok())
        .ok_or_else(|| format!("not a seat: {v}"))
}

fn field<T: serde::de::DeserializeOwned>(v: &Value, what: &str) -> Result<T, String> {
    serde_json::from_value(v.clone()).map_err(|e| format!("{what} {v}: {e}"))
}

fn list<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array().ok_or_else(|| format!("{what} is not a list"))
}

/// Every move recorded in a history document, in the order made.
pub fn moves_of(h: &Value) -> Result<Vec<Move>, String> {
    let rules: Rules = field(&h["rules"], "rules")?;
    let table = rules.variant.table();
    let mut out = Vec::new();
    for hand in list(&h["hands"], "hands")? {
        out.push(Move::Act(seat_of(&hand["dealer"])?, Action::Deal));
        for c in list(&hand["choices"], "choices")? {
            let choice = field(&c["choice"], "choice")?;
            out.push(Move::Act(seat_of(&c["seat"])?, Action::Trump { choice }));
        }
        for c in list(&hand["calls"], "calls")? {
            let call = field(&c["call"], "call")?;
            out.push(Move::Act(seat_of(&c["seat"])?, Action::Double { call }));
        }
        for t in list(&hand["tricks"], "tricks")? {
            for pc in list(&t["cards"], "trick cards")? {
                let card = field(&pc["card"], "card")?;
                out.push(Move::Act(seat_of(&pc["seat"])?, Action::Play { card }));
            }
        }
        if let Some(side) = hand["result"]["forfeit"].as_u64() {
            // Any seat of the side resigns the same way.
            let seat = (0..table.seats)
                .find(|&s| u64::from(table.side(s)) == side)
                .ok_or_else(|| format!("no seat on side {side}"))?;
            out.push(Move::Resign(seat));
        }
    }
    Ok(out)
}

/// The moves of `remote` seats other than deals (automatic here).
fn client_moves(moves: &[Move], remote: &[Seat]) -> Vec<(Seat, Action)> {
    moves
        .iter()
        .filter_map(|m| match *m {
            Move::Act(s, a) if a != Action::Deal && remote.contains(&s) => Some((s, a)),
            _ => None,
        })
        .collect()
}

fn same_moves(moves: &[Move], remote: &[Seat], posted: &[(Seat, Action)]) -> Result<(), String> {
    let recorded = client_moves(moves, remote);
    if recorded == posted {
        return Ok(());
    }
    let first = recorded
        .iter()
        .zip(posted)
        .position(|(a, b)| a != b)
        .unwrap_or(recorded.len().min(posted.len()));
    Err(format!(
        "the history holds {} moves of the client's seats, the client made {}; first difference at {first}",
        recorded.len(),
        posted.len()
    ))
}

/// Checks a finished match: the client's moves, the seed commitment, and
/// an engine replay that must rebuild the identical record.
pub fn check_finished(h: &Value, remote: &[Seat], posted: &[(Seat, Action)]) -> Result<(), String> {
    let moves = moves_of(h)?;
    same_moves(&moves, remote, posted)?;
    let seed_hex = h["seed"].as_str().ok_or("no seed in a finished match")?;
    let mut seed = [0u8; 32];
    hex::decode_to_slice(seed_hex, &mut seed).map_err(|e| format!("seed: {e}"))?;
    if hex::encode(Sha256::digest(seed)) != h["seed_sha256"].as_str().unwrap_or("") {
        return Err("the seed does not match its commitment".into());
    }
    let rules: Rules = field(&h["rules"], "rules")?;
    let m = Match::replay(rules, seed, &moves)?;
    if m.winner.is_none() {
        return Err("the replayed match is not over".into());
    }
    let replayed = serde_json::to_value(m.history_view(None)).map_err(|e| e.to_string())?;
    if replayed["scores"] != h["scores"] || replayed["winner"] != h["winner"] {
        return Err(format!(
            "scores: served {} winner {}, replayed {} winner {}",
            h["scores"], h["winner"], replayed["scores"], replayed["winner"]
        ));
    }
    if replayed != *h {
        let hands = list(&h["hands"], "hands")?;
        let at = hands
            .iter()
            .zip(list(&replayed["hands"], "hands")?)
            .position(|(a, b)| a != b);
        return Err(format!(
            "the replayed record differs (first at hand index {at:?})"
        ));
    }
    Ok(())
}

/// Checks a match still in progress: the client's moves, and the totals
/// against the finished hands.
pub fn check_in_progress(
    h: &Value,
    remote: &[Seat],
    posted: &[(Seat, Action)],
) -> Result<(), String> {
    same_moves(&moves_of(h)?, remote, posted)?;
    let scores = list(&h["scores"], "scores")?;
    let mut sums = vec![0i64; scores.len()];
    for hand in list(&h["hands"], "hands")? {
        if let Some(rec) = hand["result"]["recorded"].as_array() {
            for (s, r) in sums.iter_mut().zip(rec) {
                *s += r.as_i64().unwrap_or(0);
            }
        }
    }
    let served: Vec<i64> = scores.iter().map(|v| v.as_i64().unwrap_or(-1)).collect();
    if served != sums {
        return Err(format!(
            "totals {served:?} are not the sums {sums:?} of the hands"
        ));
    }
    Ok(())
}
