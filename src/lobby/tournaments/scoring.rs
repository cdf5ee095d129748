//! Scoring, pure: a table's points for each unit (Swiss and arena), the
//! duplicate score of every result on a board against the others in the
//! same direction (matchpoints and the points difference), and the
//! standings with their tie-breaks. Everything is recomputed from the
//! stored results; nothing derived is stored.

use super::record::{Format, Round, TableResult, TournamentRecord};

/// The share of a game a unit at `side` won: 1 for the winner, split
/// between equal highest totals, ½ each when the match was aborted.
pub fn game_points(result: &TableResult, side: usize, sides: usize) -> f64 {
    if result.winners.is_empty() {
        return if sides == 2 { 0.5 } else { 1.0 / sides as f64 };
    }
    if result.winners.iter().any(|&w| usize::from(w) == side) {
        1.0 / result.winners.len() as f64
    } else {
        0.0
    }
}

/// A side's net on one board: its recorded points against the others'
/// (in the pairs game its points less the other side's).
pub fn net(recorded: &[u32], side: usize) -> i64 {
    let n = recorded.len() as i64;
    let total: i64 = recorded.iter().map(|&r| i64::from(r)).sum();
    i64::from(recorded[side]) * n - total
}

/// One result on a board, scored against the field.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardScore {
    /// The side's net on the board (`None`: not played, adjusted).
    pub net: Option<i64>,
    /// Matchpoints: 2 for each result in the same direction it beat, 1
    /// for each it tied.
    pub matchpoints: u32,
    /// The most it could have had: 2 for each other result.
    pub top: u32,
    /// Its percentage: matchpoints over top (50 alone on the board; an
    /// unplayed board 40 for the side that ended its match early, 60 for
    /// the other, 50 when aborted).
    pub percent: f64,
    /// The mean of its net less each other net in the same direction.
    pub difference: f64,
}

/// Every table's score on `board` of `round`, per side (`None` for a
/// table still playing).
pub fn board_scores(round: &Round, board: usize, sides: usize) -> Vec<Option<Vec<BoardScore>>> {
    let nets: Vec<Option<Vec<i64>>> = round
        .tables
        .iter()
        .map(|t| {
            let r = t.result.as_ref()?;
            let rec = r.boards.get(board)?;
            Some((0..sides).map(|s| net(rec, s)).collect())
        })
        .collect();
    round
        .tables
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let r = t.result.as_ref()?;
            Some(
                (0..sides)
                    .map(|s| match &nets[i] {
                        Some(mine) => against_field(mine[s], i, s, &nets),
                        None => adjusted(r, s),
                    })
                    .collect(),
            )
        })
        .collect()
}

/// A played result `mine` (table `me`, side `side`) against the others.
fn against_field(mine: i64, me: usize, side: usize, nets: &[Option<Vec<i64>>]) -> BoardScore {
    let others: Vec<i64> = nets
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != me)
        .filter_map(|(_, n)| n.as_ref().map(|n| n[side]))
        .collect();
    let matchpoints: u32 = others
        .iter()
        .map(|&o| match mine.cmp(&o) {
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 0,
        })
        .sum();
    let top = 2 * others.len() as u32;
    let percent = if top == 0 {
        50.0
    } else {
        100.0 * f64::from(matchpoints) / f64::from(top)
    };
    let difference = if others.is_empty() {
        0.0
    } else {
        others.iter().map(|&o| (mine - o) as f64).sum::<f64>() / others.len() as f64
    };
    BoardScore {
        net: Some(mine),
        matchpoints,
        top,
        percent,
        difference,
    }
}

/// The adjusted score of a board a table did not play.
fn adjusted(r: &TableResult, side: usize) -> BoardScore {
    let percent = match r.at_fault {
        Some(f) if usize::from(f) == side => 40.0,
        Some(_) => 60.0,
        None => 50.0,
    };
    BoardScore {
        net: None,
        matchpoints: 0,
        top: 0,
        percent,
        difference: 0.0,
    }
}

/// A unit's line in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The unit.
    pub unit: usize,
    /// 1 for the first; equal lines share a rank.
    pub rank: usize,
    /// Swiss: games won (½ a draw, 1 a bye); arena: points (2 a win, 1 a
    /// draw, doubled on a streak); duplicate: the mean percentage.
    pub score: f64,
    /// Swiss: Buchholz (the sum of its opponents' scores); arena: the
    /// current streak of wins; duplicate: the sum of its differences.
    pub tiebreak: f64,
    /// The sum of its match points less its opponents' (pairs), or its
    /// points less the mean of the others' (individual variants); 0 in
    /// duplicate.
    pub points_difference: f64,
    /// Games played (duplicate: boards scored).
    pub played: u32,
    /// Byes had.
    pub byes: u32,
}

/// The standings of the tournament's ranked units (house units left
/// out), best first: by score, then tie-break, then points difference,
/// then rating.
pub fn standings(rec: &TournamentRecord) -> Vec<Standing> {
    let n = rec.units.len();
    let sides = usize::from(rec.variant.table().sides());
    let mut lines: Vec<Standing> = (0..n)
        .map(|unit| Standing {
            unit,
            rank: 0,
            score: 0.0,
            tiebreak: 0.0,
            points_difference: 0.0,
            played: 0,
            byes: 0,
        })
        .collect();
    match rec.format {
        Format::Duplicate { boards, .. } => duplicate_totals(rec, &mut lines, sides, boards),
        _ => game_totals(rec, &mut lines, sides),
    }
    lines.retain(|l| !rec.units[l.unit].house);
    let rating = |u: usize| rec.units[u].rating;
    lines.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.tiebreak.total_cmp(&a.tiebreak))
            .then(b.points_difference.total_cmp(&a.points_difference))
            .then(rating(b.unit).total_cmp(&rating(a.unit)))
            .then(a.unit.cmp(&b.unit))
    });
    for i in 0..lines.len() {
        let tied = i > 0 && {
            let (p, c) = (&lines[i - 1], &lines[i]);
            p.score == c.score
                && p.tiebreak == c.tiebreak
                && p.points_difference == c.points_difference
        };
        lines[i].rank = if tied { lines[i - 1].rank } else { i + 1 };
    }
    lines
}

/// Swiss and arena totals: every finished game in round order.
fn game_totals(rec: &TournamentRecord, lines: &mut [Standing], sides: usize) {
    let arena = matches!(rec.format, Format::Arena { .. });
    let mut streak = vec![0u32; lines.len()];
    let mut opponents: Vec<Vec<usize>> = vec![Vec::new(); lines.len()];
    for round in &rec.rounds {
        for &u in &round.byes {
            lines[u].byes += 1;
            lines[u].score += if arena { 0.0 } else { 1.0 };
        }
        for t in &round.tables {
            let Some(r) = &t.result else { continue };
            let diff = |s: usize| net(&r.scores, s) as f64 / (sides.max(2) - 1) as f64;
            for (side, &u) in t.units.iter().enumerate() {
                let p = game_points(r, side, sides);
                let l = &mut lines[u];
                l.played += 1;
                l.points_difference += diff(side);
                if arena {
                    let fire = streak[u] >= 2;
                    l.score += 2.0 * p * if fire { 2.0 } else { 1.0 };
                    streak[u] = if p >= 1.0 { streak[u] + 1 } else { 0 };
                } else {
                    l.score += p;
                }
                opponents[u].extend(t.units.iter().copied().filter(|&o| o != u));
            }
        }
    }
    if arena {
        for (l, s) in lines.iter_mut().zip(streak) {
            l.tiebreak = f64::from(s);
        }
        return;
    }
    let scores: Vec<f64> = lines.iter().map(|l| l.score).collect();
    for (l, opp) in lines.iter_mut().zip(&opponents) {
        l.tiebreak = opp.iter().map(|&o| scores[o]).sum();
    }
}

/// Duplicate totals: the mean percentage over every board scored, and the
/// sum of the differences.
fn duplicate_totals(rec: &TournamentRecord, lines: &mut [Standing], sides: usize, boards: u32) {
    let mut percent_sum = vec![0.0; lines.len()];
    let mut boards_scored = vec![0u32; lines.len()];
    // A round counts once every table is done: until then its results
    // would tell the tables still playing how the same deals went.
    for round in rec.rounds.iter().filter(|r| r.done()) {
        for &u in &round.byes {
            lines[u].byes += 1;
        }
        for b in 0..boards as usize {
            for (t, scores) in round.tables.iter().zip(board_scores(round, b, sides)) {
                let Some(scores) = scores else { continue };
                for (s, &u) in t.units.iter().enumerate() {
                    percent_sum[u] += scores[s].percent;
                    boards_scored[u] += 1;
                    lines[u].tiebreak += scores[s].difference;
                }
            }
        }
    }
    for (u, l) in lines.iter_mut().enumerate() {
        l.played = boards_scored[u];
        if boards_scored[u] > 0 {
            l.score = percent_sum[u] / f64::from(boards_scored[u]);
        }
    }
}

#[cfg(test)]
mod tests;
