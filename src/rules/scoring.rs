//! Scoring a hand and deciding the match (docs/rules.md sections 5, 6, 7, 10).

use super::contract::{Call, CallRecord};
use super::hand::HandState;
use super::seat::Side;
use super::variant::Rules;

pub use super::outcome::{HandResult, Winner};

/// The doubles said in a hand, an Estevet's built-in contro first.
pub fn doubles_said(h: &HandState) -> Vec<CallRecord> {
    let estevet = h.estevet_by.map(|seat| CallRecord {
        seat,
        call: Call::Contro,
    });
    estevet
        .into_iter()
        .chain(h.calls.iter().copied().filter(|c| c.call != Call::Pass))
        .collect()
}

/// The result of `h` in which side `i`, with `p` hand points, records
/// `record(i, p, multiplier)`.
fn result_with(rules: &Rules, h: &HandState, record: impl Fn(usize, u8, u32) -> u32) -> HandResult {
    let sides = rules.variant.table().sides() as usize;
    let multiplier = h.multiplier(rules);
    let points = &h.points[..sides];
    HandResult {
        hand_number: h.number,
        dealer: h.dealer,
        declarer: h.declarer,
        trump: h.trump,
        calls: doubles_said(h),
        multiplier,
        points: points.to_vec(),
        recorded: points
            .iter()
            .enumerate()
            .map(|(i, &p)| record(i, p, multiplier))
            .collect(),
        forfeit: h.forfeit,
    }
}

/// Scores a completed hand: every side above the threshold (36 in pairs, 18
/// or 24 in abarrotada) records the excess times the multiplier.
pub fn score_hand(rules: &Rules, h: &HandState) -> HandResult {
    result_with(rules, h, |_, p, multiplier| {
        over_threshold(rules, p) * multiplier
    })
}

/// The hand points above the variant's threshold (what a side records before
/// the multiplier); 0 at or below it.
pub fn over_threshold(rules: &Rules, points: u8) -> u32 {
    u32::from(points).saturating_sub(rules.variant.threshold())
}

/// Scores a forfeited hand: the other team records `36 × multiplier`; in the
/// individual variants each other player records an equal share, rounded
/// down.
pub fn score_forfeit(rules: &Rules, h: &HandState, side: Side) -> HandResult {
    let others = rules.variant.table().sides() as u32 - 1;
    result_with(rules, h, |i, _, multiplier| {
        if i as u8 == side {
            0
        } else {
            36 * multiplier / others
        }
    })
}

/// The side with the highest total, or a draw when several share it.
pub fn winner_of(scores: &[i32]) -> Winner {
    let best = scores.iter().copied().max().unwrap_or(0);
    let mut leaders = scores.iter().enumerate().filter(|(_, s)| **s == best);
    match (leaders.next(), leaders.next()) {
        (Some((i, _)), None) => Winner::Side(i as Side),
        _ => Winner::Draw,
    }
}
