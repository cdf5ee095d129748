//! The matching pass: which tickets of a pool sit down together now.
//!
//! Pure (no store, no clock, no randomness of its own): given a pool's
//! waiting tickets, the variant and the time, [`run_pass`] decides which
//! tickets expire, which groups form and how they are seated, and which
//! seats go to house bots; the caller writes the result in the same
//! compare-and-set as the pool it read, so a pass either happens whole or
//! not at all. Being pure, it is tested here on plain pools.
//!
//! How a group forms: tickets are taken oldest first; each still unseated
//! one anchors a group and gathers, nearest rating first, the tickets it
//! may sit with until the variant's seats are full (a pair ticket counts
//! two). Two tickets may sit together when each accepts the other's bots
//! (or lack of them) and their ratings are within both rating windows; a
//! window starts at ±[`WINDOW_START`] and widens by [`WINDOW_STEP`] every
//! [`WINDOW_EVERY_MS`] of waiting, up to ±[`WINDOW_MAX`], so a lone
//! ticket is matched further afield the longer it waits. A group still
//! short when its anchor's fill time has come is completed with the house
//! bot nearest its mean rating (only tickets that accept bots join it).

use super::record::{Entry, Formed, FormedSeat, PoolRecord};
use crate::rating;
use crate::rules::{Seat, Variant};
use crate::service::Error;

/// Half-width of the rating window when a ticket starts waiting.
pub const WINDOW_START: f64 = 100.0;
/// How much the half-width grows…
pub const WINDOW_STEP: f64 = 50.0;
/// …every this many milliseconds of waiting…
pub const WINDOW_EVERY_MS: u64 = 10_000;
/// …up to this half-width.
pub const WINDOW_MAX: f64 = 1000.0;
/// The house bots the queue fills seats with, by their anchor rating.
const FILL_BOTS: [&str; 5] = ["random", "easy", "medium", "hard", "expert"];

/// The half-width of a ticket's window after waiting `waited_ms`.
pub fn window(waited_ms: u64) -> f64 {
    (WINDOW_START + WINDOW_STEP * (waited_ms / WINDOW_EVERY_MS) as f64).min(WINDOW_MAX)
}

/// The house bot whose anchor rating is nearest `rating`.
pub fn house_bot_near(rating: f64) -> &'static str {
    FILL_BOTS
        .iter()
        .copied()
        .min_by(|a, b| {
            let d = |n: &str| (rating::house_anchor(n).map_or(0.0, |r| r.rating) - rating).abs();
            d(a).total_cmp(&d(b))
        })
        .unwrap_or("medium")
}

/// Whether ticket `a` accepts sitting with ticket `b`.
fn accepts(a: &Entry, b: &Entry) -> bool {
    let any_bot = b.bots.iter().any(|&x| x);
    let all_bots = b.bots.iter().all(|&x| x);
    (a.accept_bots || !any_bot) && (!a.only_bots || all_bots)
}

/// Whether `a` and `b` may sit at one table as of `now`: each accepts the
/// other, and their ratings are within both windows.
fn compatible(a: &Entry, b: &Entry, now: u64) -> bool {
    let w = window(now.saturating_sub(a.created_ms)).min(window(now.saturating_sub(b.created_ms)));
    accepts(a, b) && accepts(b, a) && (a.rating - b.rating).abs() <= w
}

/// What a pass did to a pool.
#[derive(Debug, Default)]
pub struct Pass {
    /// Matches formed now.
    pub formed: Vec<Formed>,
    /// Tickets that expired.
    pub expired: Vec<Entry>,
}

/// A matching pass over `pool` as of `now`: expires tickets past their
/// life, then, oldest ticket first, gathers the compatible tickets nearest
/// its rating until the variant's seats are full; a group still short when
/// its oldest ticket's fill time has come is completed with house bots
/// (only tickets that accept bots join such a group). Formed matches are
/// appended to `pool.formed` under ids drawn from `new_id`.
///
/// # Errors
/// What `new_id` returns.
pub fn run_pass(
    pool: &mut PoolRecord,
    variant: Variant,
    now: u64,
    mut new_id: impl FnMut() -> Result<String, Error>,
) -> Result<Pass, Error> {
    let mut pass = Pass::default();
    let (expired, waiting): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut pool.waiting)
        .into_iter()
        .partition(|e| now >= e.expires_ms);
    pass.expired = expired;
    let seats = variant.table().seats as usize;
    let mut left: Vec<Option<Entry>> = waiting.into_iter().map(Some).collect();
    for i in 0..left.len() {
        let Some(anchor) = left[i].clone() else {
            continue;
        };
        let filling = anchor.fill_at_ms.is_some_and(|t| now >= t);
        let mut group = vec![i];
        let mut units = anchor.players.len();
        let mut candidates: Vec<usize> = (0..left.len())
            .filter(|&j| j != i)
            .filter(|&j| {
                left[j]
                    .as_ref()
                    .is_some_and(|e| compatible(&anchor, e, now) && (!filling || e.accept_bots))
            })
            .collect();
        candidates.sort_by(|&a, &b| {
            let d = |j: usize| {
                left[j]
                    .as_ref()
                    .map_or(f64::MAX, |e| (e.rating - anchor.rating).abs())
            };
            d(a).total_cmp(&d(b)).then(a.cmp(&b))
        });
        for j in candidates {
            if units == seats {
                break;
            }
            let Some(e) = left[j].as_ref() else { continue };
            if units + e.players.len() > seats
                || !group
                    .iter()
                    .all(|&g| left[g].as_ref().is_some_and(|x| compatible(x, e, now)))
            {
                continue;
            }
            units += e.players.len();
            group.push(j);
        }
        if units < seats && !filling {
            continue;
        }
        let entries: Vec<Entry> = group.iter().filter_map(|&g| left[g].take()).collect();
        pass.formed.push(Formed {
            match_id: new_id()?,
            seats: seat_group(variant, &entries),
        });
    }
    pool.waiting = left.into_iter().flatten().collect();
    pool.formed.extend(pass.formed.iter().cloned());
    Ok(pass)
}

/// Seats a group: a pair ticket's players opposite each other, single
/// players in the other seats (in the pairs game the strongest and the
/// weakest single players together), house bots in the seats left.
fn seat_group(variant: Variant, entries: &[Entry]) -> Vec<FormedSeat> {
    let layout = variant.table();
    let n = layout.seats as usize;
    let mut seats: Vec<Option<FormedSeat>> = vec![None; n];
    let mut singles: Vec<(&Entry, &String)> = Vec::new();
    for e in entries {
        if e.players.len() == 2 {
            let free = (0..n).find(|&s| {
                seats[s].is_none()
                    && layout
                        .partner(s as Seat)
                        .is_some_and(|p| seats[usize::from(p)].is_none())
            });
            if let Some(s) = free {
                let p = layout.partner(s as Seat).map_or(s, usize::from);
                for (at, player) in [(s, &e.players[0]), (p, &e.players[1])] {
                    seats[at] = Some(FormedSeat {
                        player: Some(player.clone()),
                        bot: None,
                        ticket: Some(e.ticket.clone()),
                    });
                }
                continue;
            }
        }
        singles.extend(e.players.iter().map(|p| (e, p)));
    }
    if layout.pairs && singles.len() == 4 {
        singles.sort_by(|a, b| b.0.rating.total_cmp(&a.0.rating));
        singles = vec![singles[0], singles[1], singles[3], singles[2]];
    }
    let rating = entries.iter().map(|e| e.rating).sum::<f64>() / entries.len().max(1) as f64;
    let bot = house_bot_near(rating);
    let mut singles = singles.into_iter();
    seats
        .into_iter()
        .map(|s| {
            s.unwrap_or_else(|| match singles.next() {
                Some((e, p)) => FormedSeat {
                    player: Some(p.clone()),
                    bot: None,
                    ticket: Some(e.ticket.clone()),
                },
                None => FormedSeat {
                    player: None,
                    bot: Some(bot.to_string()),
                    ticket: None,
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, players: &[&str], rating: f64, created_ms: u64) -> Entry {
        Entry {
            ticket: id.to_string(),
            players: players.iter().map(|p| p.to_string()).collect(),
            bots: vec![true; players.len()],
            rating,
            accept_bots: true,
            only_bots: false,
            fill_at_ms: None,
            created_ms,
            expires_ms: created_ms + 600_000,
        }
    }

    fn pass(pool: &mut PoolRecord, variant: Variant, now: u64) -> Pass {
        let mut n = 0;
        run_pass(pool, variant, now, || {
            n += 1;
            Ok(format!("m{n}"))
        })
        .unwrap()
    }

    fn players_of(f: &Formed) -> Vec<Option<String>> {
        f.seats.iter().map(|s| s.player.clone()).collect()
    }

    #[test]
    fn the_window_starts_at_100_and_widens_by_50_every_10_s_up_to_1000() {
        assert_eq!(window(0), 100.0);
        assert_eq!(window(9_999), 100.0);
        assert_eq!(window(10_000), 150.0);
        assert_eq!(window(60_000), 400.0);
        assert_eq!(window(10_000_000), WINDOW_MAX);
    }

    #[test]
    fn a_rating_outside_the_window_is_matched_once_the_window_has_widened() {
        let mut pool = PoolRecord {
            waiting: vec![
                entry("a", &["pa"], 1500.0, 0),
                entry("b", &["pb"], 1500.0, 0),
                entry("c", &["pc"], 1620.0, 0),
            ],
            formed: Vec::new(),
        };
        let p = pass(&mut pool, Variant::Abarrotada3, 5_000);
        assert!(p.formed.is_empty(), "120 points apart within ±100");
        assert_eq!(pool.waiting.len(), 3);
        let p = pass(&mut pool, Variant::Abarrotada3, 10_000);
        assert_eq!(p.formed.len(), 1, "±150 after 10 s");
        assert!(pool.waiting.is_empty());
        assert_eq!(pool.formed, p.formed);
    }

    #[test]
    fn the_nearest_ratings_are_grouped_and_the_rest_wait() {
        let mut pool = PoolRecord::default();
        for (i, r) in [1500.0, 1900.0, 1520.0, 1880.0, 1510.0, 1890.0]
            .into_iter()
            .enumerate()
        {
            let id = format!("t{i}");
            pool.waiting
                .push(entry(&id, &[&format!("p{i}")], r, i as u64));
        }
        let p = pass(&mut pool, Variant::Abarrotada3, 10);
        assert_eq!(p.formed.len(), 2);
        let mut first: Vec<_> = players_of(&p.formed[0]).into_iter().flatten().collect();
        first.sort();
        assert_eq!(first, ["p0", "p2", "p4"]);
        let mut second: Vec<_> = players_of(&p.formed[1]).into_iter().flatten().collect();
        second.sort();
        assert_eq!(second, ["p1", "p3", "p5"]);
    }

    #[test]
    fn a_pair_ticket_sits_opposite_and_single_players_fill_the_other_side() {
        let mut pool = PoolRecord {
            waiting: vec![
                entry("s1", &["x"], 1500.0, 0),
                entry("pair", &["a", "b"], 1500.0, 1),
                entry("s2", &["y"], 1500.0, 2),
            ],
            formed: Vec::new(),
        };
        let p = pass(&mut pool, Variant::Pairs, 10);
        assert_eq!(p.formed.len(), 1);
        let seats = players_of(&p.formed[0]);
        let at = |p: &str| seats.iter().position(|s| s.as_deref() == Some(p)).unwrap();
        assert_eq!((at("a") + 2) % 4, at("b"), "{seats:?}");
        assert_eq!((at("x") + 2) % 4, at("y"), "{seats:?}");
    }

    #[test]
    fn three_seats_of_four_wait_for_a_fourth() {
        let mut pool = PoolRecord {
            waiting: vec![
                entry("pair", &["a", "b"], 1500.0, 0),
                entry("s", &["x"], 1500.0, 1),
            ],
            formed: Vec::new(),
        };
        assert!(pass(&mut pool, Variant::Pairs, 10).formed.is_empty());
        assert_eq!(pool.waiting.len(), 2);
    }

    #[test]
    fn bot_preferences_keep_tickets_apart() {
        let mut human = entry("h", &["h"], 1500.0, 0);
        human.bots = vec![false];
        let mut no_bots = entry("n", &["n"], 1500.0, 1);
        no_bots.bots = vec![false];
        no_bots.accept_bots = false;
        let mut only_bots = entry("o", &["o"], 1500.0, 2);
        only_bots.only_bots = true;
        let bot = entry("b", &["b"], 1500.0, 3);
        // `no_bots` refuses `only_bots` and `bot`; `only_bots` refuses the
        // humans: no three of the four can sit together.
        let mut pool = PoolRecord {
            waiting: vec![
                human.clone(),
                no_bots.clone(),
                only_bots.clone(),
                bot.clone(),
            ],
            formed: Vec::new(),
        };
        assert!(pass(&mut pool, Variant::Abarrotada3, 10).formed.is_empty());
        // A second bot lets the bots (and only them) sit together.
        pool.waiting.push(entry("b2", &["b2"], 1500.0, 4));
        let p = pass(&mut pool, Variant::Abarrotada3, 10);
        assert_eq!(p.formed.len(), 1);
        let mut seated: Vec<_> = players_of(&p.formed[0]).into_iter().flatten().collect();
        seated.sort();
        assert_eq!(seated, ["b", "b2", "o"]);
        // Two more humans: the humans sit together, `no_bots` among them.
        let mut h2 = entry("h2", &["h2"], 1500.0, 5);
        h2.bots = vec![false];
        pool.waiting.push(h2);
        let p = pass(&mut pool, Variant::Abarrotada3, 10);
        assert_eq!(p.formed.len(), 1);
        let mut seated: Vec<_> = players_of(&p.formed[0]).into_iter().flatten().collect();
        seated.sort();
        assert_eq!(seated, ["h", "h2", "n"]);
    }

    #[test]
    fn after_its_fill_wait_a_ticket_is_completed_with_the_nearest_house_bot() {
        let mut lone = entry("l", &["l"], 1790.0, 0);
        lone.fill_at_ms = Some(5_000);
        let mut pool = PoolRecord {
            waiting: vec![lone],
            formed: Vec::new(),
        };
        assert!(pass(&mut pool, Variant::Pairs, 4_999).formed.is_empty());
        let p = pass(&mut pool, Variant::Pairs, 5_000);
        assert_eq!(p.formed.len(), 1);
        let bots: Vec<_> = p.formed[0]
            .seats
            .iter()
            .filter_map(|s| s.bot.clone())
            .collect();
        assert_eq!(bots, ["hard", "hard", "hard"]);
        assert_eq!(house_bot_near(1500.0), "medium");
        assert_eq!(house_bot_near(600.0), "random");
        assert_eq!(house_bot_near(1840.0), "expert");
    }

    #[test]
    fn a_ticket_past_its_life_expires_and_is_never_matched() {
        let mut old = entry("old", &["o"], 1500.0, 0);
        old.expires_ms = 1_000;
        let mut pool = PoolRecord {
            waiting: vec![
                old,
                entry("a", &["a"], 1500.0, 500),
                entry("b", &["b"], 1500.0, 500),
            ],
            formed: Vec::new(),
        };
        let p = pass(&mut pool, Variant::Abarrotada3, 1_000);
        assert_eq!(p.expired.len(), 1);
        assert_eq!(p.expired[0].ticket, "old");
        assert!(p.formed.is_empty());
        assert_eq!(pool.waiting.len(), 2);
    }
}
