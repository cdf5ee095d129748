//! Rated means earned: which results of a finished rated match move a
//! player's rating (docs/api.md, "Fair play: rated means earned").
//!
//! - **Abort.** A rated match in which no hand was played to its last
//!   trick (every hand resigned or forfeited on the clock) is unrated for
//!   every seat: nothing was played, nothing is earned.
//! - **The same opponents, a bounded number of times a day.** A result
//!   against a registered opponent counts at most
//!   [`SAME_OPPONENT_PER_DAY`] times within a day of match creations
//!   ([`DAY_MS`]); past that the opponent is left out of the player's
//!   update. House bots are anchors and always count.
//! - **One address, a bounded number of times a day.** Results against
//!   opponents registered from the player's own client address count at
//!   most [`SAME_ADDRESS_PER_DAY`] times a day, all of them together:
//!   accounts one client made cannot feed each other's ratings.
//! - **Provisional opponents do not move an established rating.** A
//!   player whose deviation is at most
//!   [`PROVISIONAL_DEVIATION`](crate::rating::PROVISIONAL_DEVIATION) is
//!   not moved by registered opponents whose deviation, when the match was
//!   created, was above it; a provisional player is (it is still being
//!   placed).
//!
//! In the pairs game the opposing side is one opponent (its two seats
//! folded into one): when either of its players is left out, the side is.
//!
//! Also here: the games a seat plays in a rated match ([`rated_games`]).
//!
//! Everything here is decided from the match record and the player's
//! stored standing, inside the compare-and-set that applies the match: a
//! retry decides the same, and the match is applied once either way.

use super::record::{RatingEntry, Unrated};
use crate::lobby::records::{PlayerRating, SeatPlayer};
use crate::rating::{self, DEFAULT_TAU, Game, PROVISIONAL_DEVIATION, Rating};
use crate::rules::{Match, Seat, Winner};
use crate::service::{MatchRecord, RatedMatch};

/// How many times a day results against the same registered opponent
/// count for a player in one pool.
pub const SAME_OPPONENT_PER_DAY: usize = 3;

/// How many times a day results against opponents registered from the
/// player's own client address count for it in one pool, all such
/// opponents together.
pub const SAME_ADDRESS_PER_DAY: usize = 3;

/// The entry of a standing's `recent` list that marks a result against
/// an opponent registered from the player's own address (no player id
/// starts with `@`).
const SAME_ADDRESS: &str = "@same-address";

/// A day, in milliseconds: the window of [`SAME_OPPONENT_PER_DAY`].
pub const DAY_MS: u64 = 24 * 3600 * 1000;

/// Most entries a standing's `recent` list keeps.
const RECENT_KEPT: usize = 256;

/// The games a seat's player plays in a rated match that is over: its
/// opponents as recorded at creation, and its score against each.
pub fn rated_games(rec: &MatchRecord, rated: &RatedMatch, seat: Seat) -> Vec<Game> {
    rated_games_among(rec, rated, seat, |_| true)
}

/// [`rated_games`] against the opponents at the seats `keep` keeps only
/// (in the pairs game the opposing side is folded from those kept).
pub fn rated_games_among(
    rec: &MatchRecord,
    rated: &RatedMatch,
    seat: Seat,
    keep: impl Fn(Seat) -> bool,
) -> Vec<Game> {
    let table = rec.game.table();
    let me = table.side(seat);
    let n = rated.before.len().min(table.seats as usize) as Seat;
    if table.pairs {
        let score = match rec.game.winner {
            Some(Winner::Side(s)) if s == me => 1.0,
            Some(Winner::Side(_)) => 0.0,
            _ => 0.5,
        };
        let opponents: Vec<&Rating> = (0..n)
            .filter(|&s| table.side(s) != me && keep(s))
            .map(|s| &rated.before[s as usize])
            .collect();
        let opponent = match opponents.as_slice() {
            [a, b] => rating::side_opponent(a, b),
            [a] => **a,
            _ => return Vec::new(),
        };
        return vec![Game { opponent, score }];
    }
    let totals = &rec.game.scores;
    let mine = totals[me as usize];
    // A seat that resigned, abandoned or was claimed against lost to
    // every other seat; the others count by their totals.
    let loser = rec.game.early_loser();
    (0..n)
        .filter(|&s| s != seat && keep(s))
        .map(|s| {
            let theirs = totals[table.side(s) as usize];
            let score = match (loser, mine.cmp(&theirs)) {
                (Some(l), _) if l == seat => 0.0,
                (Some(l), _) if l == s => 1.0,
                (_, std::cmp::Ordering::Greater) => 1.0,
                (_, std::cmp::Ordering::Equal) => 0.5,
                (_, std::cmp::Ordering::Less) => 0.0,
            };
            Game {
                opponent: rated.before[s as usize],
                score,
            }
        })
        .collect()
}

/// Whether a finished match saw the minimum of play that rates it: at
/// least one hand played to its last trick.
pub fn played_enough(game: &Match) -> bool {
    game.played_enough()
}

/// What of a seat's games counts.
pub struct Counted {
    /// The games against the opponents kept.
    pub games: Vec<Game>,
    /// The registered opponents among them (and the mark of one
    /// registered from the player's own address, if one counted).
    pub opponents: Vec<String>,
    /// Why nothing counts, when nothing does.
    pub unrated: Option<Unrated>,
}

/// The registered (not house) player at seat `s`, if any.
fn registered(rec: &MatchRecord, s: Seat) -> Option<&str> {
    rec.seats
        .get(s as usize)
        .and_then(|seat| seat.player.as_ref())
        .filter(|p| !SeatPlayer::is_house(p))
        .map(|p| p.id.as_str())
}

/// How many results against `opponent` within a day of `created_ms`
/// counted in `standing`.
fn repeats(standing: &PlayerRating, opponent: &str, created_ms: u64) -> usize {
    standing
        .recent
        .iter()
        .filter(|(id, at)| id == opponent && at.abs_diff(created_ms) < DAY_MS)
        .count()
}

/// Where the players of a match registered from: per seat, the hash of
/// the address of the registered player there, if known.
pub type Origins = [Option<String>];

/// The games of `seat` in the finished rated match `rec` that count for a
/// player standing at `standing`, registered from `mine`.
pub fn counted_games(
    rec: &MatchRecord,
    rated: &RatedMatch,
    seat: Seat,
    standing: &PlayerRating,
    (mine, origins): (Option<&str>, &Origins),
) -> Counted {
    if !played_enough(&rec.game) {
        return Counted {
            games: Vec::new(),
            opponents: Vec::new(),
            unrated: Some(Unrated::Aborted),
        };
    }
    let table = rec.game.table();
    let me = table.side(seat);
    let established = standing.rating.deviation <= PROVISIONAL_DEVIATION;
    let mut keep = vec![true; rated.before.len()];
    let mut reason = None;
    let mut opponents = Vec::new();
    for s in 0..rated.before.len().min(table.seats as usize) as Seat {
        if s == seat || (table.pairs && table.side(s) == me) {
            continue;
        }
        let Some(id) = registered(rec, s) else {
            continue;
        };
        let theirs = origins.get(s as usize).and_then(Option::as_deref);
        let same_address = mine.is_some() && theirs == mine;
        if same_address && repeats(standing, SAME_ADDRESS, rec.created_ms) >= SAME_ADDRESS_PER_DAY {
            keep[s as usize] = false;
            reason.get_or_insert(Unrated::SameAddress);
        } else if repeats(standing, id, rec.created_ms) >= SAME_OPPONENT_PER_DAY {
            keep[s as usize] = false;
            reason.get_or_insert(Unrated::RepeatedOpponent);
        } else if established && rated.before[s as usize].deviation > PROVISIONAL_DEVIATION {
            keep[s as usize] = false;
            reason.get_or_insert(Unrated::ProvisionalOpponent);
        } else {
            if same_address && !opponents.iter().any(|o| o == SAME_ADDRESS) {
                opponents.push(SAME_ADDRESS.to_string());
            }
            opponents.push(id.to_string());
        }
    }
    // In the pairs game the opposing side is one opponent: its result is
    // the pair's, so one member left out leaves the pair out.
    if table.pairs && keep.iter().any(|k| !k) {
        keep.fill(false);
        opponents.clear();
    }
    let games = rated_games_among(rec, rated, seat, |s| keep[s as usize]);
    let unrated = games.is_empty().then(|| reason.unwrap_or(Unrated::Aborted));
    Counted {
        games,
        opponents,
        unrated,
    }
}

/// Notes that the results against `opponents` in a match created at
/// `created_ms` counted, forgetting those more than a day older.
pub fn note_opponents(standing: &mut PlayerRating, opponents: &[String], created_ms: u64) {
    standing
        .recent
        .retain(|(_, at)| at.saturating_add(DAY_MS) > created_ms);
    for id in opponents {
        standing.recent.push((id.clone(), created_ms));
    }
    if standing.recent.len() > RECENT_KEPT {
        let excess = standing.recent.len() - RECENT_KEPT;
        standing.recent.drain(..excess);
    }
}

/// Applies what counts of `seat`'s games in the finished rated match
/// `rec` to `standing` (at `now_ms`; the player registered from the first
/// of `origins`, the seats' players from the second): the history entry
/// telling it. A
/// match that leaves the rating as it was leaves the standing as it was
/// too (the caller lists the match as applied either way).
pub fn apply(
    standing: &mut PlayerRating,
    rec: &MatchRecord,
    (rated, seat): (&RatedMatch, Seat),
    origins: (Option<&str>, &Origins),
    now_ms: u64,
) -> RatingEntry {
    let counted = counted_games(rec, rated, seat, standing, origins);
    let all = rated_games(rec, rated, seat);
    let before = standing.rating;
    let after = match counted.unrated {
        Some(_) => before,
        None => before.update(&counted.games, DEFAULT_TAU),
    };
    if counted.unrated.is_none() {
        standing.rating = after;
        standing.games += 1;
        standing.updated_ms = now_ms;
        note_opponents(standing, &counted.opponents, rec.created_ms);
    }
    RatingEntry {
        match_id: rec.id.clone(),
        match_created_ms: rec.created_ms,
        seat,
        before,
        after,
        score: all.iter().map(|g| g.score).sum::<f64>() / all.len().max(1) as f64,
        at_ms: now_ms,
        unrated: counted.unrated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opponent_counts_three_times_within_a_day() {
        let mut standing = PlayerRating::default();
        let t0 = 10 * DAY_MS;
        for i in 0..3 {
            assert!(repeats(&standing, "p1", t0 + i) < SAME_OPPONENT_PER_DAY);
            note_opponents(&mut standing, &["p1".to_string()], t0 + i);
        }
        assert_eq!(repeats(&standing, "p1", t0 + 10), SAME_OPPONENT_PER_DAY);
        assert_eq!(repeats(&standing, "p2", t0 + 10), 0, "another opponent");
        assert!(
            repeats(&standing, "p1", t0 + DAY_MS + 5) < SAME_OPPONENT_PER_DAY,
            "a day later the first results no longer weigh"
        );
        note_opponents(&mut standing, &[], t0 + 2 * DAY_MS + 5);
        assert!(standing.recent.is_empty(), "forgotten after a day");
    }

    #[test]
    fn in_the_individual_game_an_early_loser_lost_to_every_seat() {
        use crate::rules::{Ending, Rules, Variant};
        use crate::service::SeatKind;
        let rules = Rules {
            variant: Variant::Abarrotada3,
            ..Rules::default()
        };
        let mut game = Match::new(rules, [5; 32]).unwrap();
        let dealer = game.dealer;
        game.perform(
            crate::rules::Move::Act(dealer, crate::rules::Action::Deal),
            &mut Vec::new(),
        )
        .unwrap();
        // Seat 1 leads on points, then resigns the match.
        game.scores = [3, 9, 1, 0];
        game.end(1, Ending::Resigned, &mut Vec::new()).unwrap();
        let rec = MatchRecord::sample(game, &[SeatKind::Remote; 3], true);
        let rated = rec.rated.clone().unwrap();
        let scores = |seat| -> Vec<f64> {
            rated_games(&rec, &rated, seat)
                .iter()
                .map(|g| g.score)
                .collect()
        };
        assert_eq!(scores(1), [0.0, 0.0], "the resigner lost to both");
        assert_eq!(scores(0), [1.0, 1.0], "seat 0 beat the resigner and seat 2");
        assert_eq!(
            scores(2),
            [0.0, 1.0],
            "seat 2 lost to seat 0, beat the resigner"
        );
        assert_eq!(rec.game.winner, Some(Winner::Side(0)));
    }
}
