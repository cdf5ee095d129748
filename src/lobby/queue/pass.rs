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

use super::lanes::{Cursor, KINDS, Lanes, accepting_bots, compatible_kinds};
use super::record::{Entry, Formed, FormedSeat, Import, ImportState, PoolRecord};
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
pub(super) fn compatible(a: &Entry, b: &Entry, now: u64) -> bool {
    let w = window(now.saturating_sub(a.created_ms)).min(window(now.saturating_sub(b.created_ms)));
    accepts(a, b) && accepts(b, a) && (a.rating - b.rating).abs() <= w
}

/// How many tickets one ticket's search for company reads at most: past
/// it, the ticket waits for the next pass (which comes within a second).
pub const MAX_EXAMINED: usize = 64;

/// What a pass did to a pool.
#[derive(Debug, Default)]
pub struct Pass {
    /// Matches formed now.
    pub formed: Vec<Formed>,
    /// Groups formed now with tickets of other shards, to be borrowed.
    pub imports: Vec<Import>,
    /// Tickets that expired.
    pub expired: Vec<Entry>,
    /// Tickets read while looking for company (the pass's work, besides
    /// one step per waiting ticket).
    pub examined: usize,
    /// When the pool next needs a pass though nothing joins it: the
    /// first fill time, expiry, or widening of windows that brings two
    /// compatible tickets together; `None` if only a new ticket can.
    pub due_ms: Option<u64>,
}

/// When a ticket queued at `created` has a window of at least `d`.
pub(super) fn widened_at(created: u64, d: f64) -> Option<u64> {
    if d > WINDOW_MAX {
        return None;
    }
    let steps = ((d - WINDOW_START) / WINDOW_STEP).ceil().max(0.0) as u64;
    Some(created + steps * WINDOW_EVERY_MS)
}

pub(super) fn earliest(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// One ticket's search for company.
struct Gathered {
    /// The tickets, the anchor first.
    group: Vec<usize>,
    /// Seats they take.
    units: usize,
    /// When a widening window could change the answer.
    wake_ms: Option<u64>,
    /// Tickets read.
    examined: usize,
}

/// Gathers, nearest rating first (then oldest), the waiting tickets that
/// may sit with ticket `i` and with each other, until `seats` are taken.
fn gather(
    lanes: &mut Lanes,
    entries: &[Entry],
    i: usize,
    own: usize,
    seats: usize,
    filling: bool,
    now: u64,
) -> Gathered {
    let (compat, bots_ok) = (compatible_kinds(), accepting_bots());
    let anchor = &entries[i];
    let reach = window(now.saturating_sub(anchor.created_ms));
    let mut allowed = compat[lanes.kind_of(i)] & if filling { bots_ok } else { !0 };
    let mut cursors: Vec<Cursor> = Vec::new();
    for k in (0..KINDS).filter(|&k| allowed & 1 << k != 0) {
        if !lanes.empty(k) {
            cursors.extend(lanes.cursors(k, anchor.rating));
        }
    }
    let mut out = Gathered {
        group: vec![i],
        units: anchor.players.len(),
        wake_ms: None,
        examined: 0,
    };
    while out.units < seats && out.examined < MAX_EXAMINED {
        // The nearest head of a kind the group still accepts.
        let best = cursors
            .iter()
            .enumerate()
            .filter(|(_, c)| allowed & 1 << Lanes::kind_at(**c) != 0)
            .filter_map(|(n, c)| {
                lanes
                    .head(*c)
                    .map(|(j, r)| (n, j, (r - anchor.rating).abs()))
            })
            .min_by(|a, b| a.2.total_cmp(&b.2).then(a.1.cmp(&b.1)));
        let Some((n, j, d)) = best else { break };
        if j == i {
            lanes.advance(&mut cursors[n]);
            continue;
        }
        let e = &entries[j];
        if j >= own && (e.created_ms, &e.ticket) < (anchor.created_ms, &anchor.ticket) {
            // Another shard's ticket older than this anchor: its own
            // shard's pass anchors it, so that two shards never borrow
            // each other's tickets for one group.
            lanes.advance(&mut cursors[n]);
            continue;
        }
        if d > reach {
            // Beyond the anchor's window: so is everything after it.
            let at = widened_at(anchor.created_ms, d).max(widened_at(e.created_ms, d));
            out.wake_ms = earliest(out.wake_ms, at.filter(|&t| t > now));
            cursors.swap_remove(n);
            continue;
        }
        lanes.advance(&mut cursors[n]);
        out.examined += 1;
        if !compatible(anchor, e, now) {
            let at = widened_at(e.created_ms, d).filter(|&t| t > now);
            out.wake_ms = earliest(out.wake_ms, at);
            continue;
        }
        if out.units + e.players.len() > seats
            || !out.group.iter().all(|&g| compatible(&entries[g], e, now))
        {
            continue;
        }
        out.units += e.players.len();
        out.group.push(j);
        allowed &= compat[lanes.kind_of(j)];
    }
    if out.examined >= MAX_EXAMINED && out.units < seats {
        out.wake_ms = earliest(out.wake_ms, Some(now + 1000));
    }
    out
}

/// A matching pass over `pool` as of `now`: expires tickets past their
/// life, then, oldest ticket first, gathers the compatible tickets nearest
/// its rating until the variant's seats are full; a group still short when
/// its oldest ticket's fill time has come is completed with house bots
/// (only tickets that accept bots join such a group). Formed matches are
/// appended to `pool.formed` under ids drawn from `new_id`.
///
/// `foreign` are waiting tickets of the pool's other shards within reach:
/// they may join a group of this shard's tickets younger than them
/// (never anchor one, never expire here). A group that takes any is not
/// formed but appended to `pool.importing`, its own tickets out of
/// `waiting`, until the foreign ones are borrowed (see `shards.rs`).
///
/// Its cost grows as N log N with the N waiting tickets: sorting them
/// into their kinds' lanes, then for each at most [`MAX_EXAMINED`] reads
/// of its nearest compatible tickets (see `lanes.rs`).
///
/// # Errors
/// What `new_id` returns.
pub fn run_pass(
    pool: &mut PoolRecord,
    variant: Variant,
    now: u64,
    foreign: &[Entry],
    mut new_id: impl FnMut() -> Result<String, Error>,
) -> Result<Pass, Error> {
    let mut pass = Pass::default();
    let (expired, mut waiting): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut pool.waiting)
        .into_iter()
        .partition(|e| now >= e.expires_ms);
    pass.expired = expired;
    let own = waiting.len();
    let foreign = foreign.iter().filter(|f| now < f.expires_ms);
    waiting.extend(foreign.cloned());
    let seats = variant.table().seats as usize;
    let mut lanes = Lanes::new(&waiting);
    let mut seated = vec![false; waiting.len()];
    for i in 0..own {
        if seated[i] {
            continue;
        }
        let anchor = &waiting[i];
        let filling = anchor.fill_at_ms.is_some_and(|t| now >= t);
        let found = gather(&mut lanes, &waiting, i, own, seats, filling, now);
        pass.examined += found.examined;
        if found.units < seats && !filling {
            let timers = earliest(Some(anchor.expires_ms), anchor.fill_at_ms);
            pass.due_ms = earliest(pass.due_ms, earliest(found.wake_ms, timers));
            continue;
        }
        for &g in &found.group {
            seated[g] = true;
            lanes.remove(g);
        }
        let entries: Vec<Entry> = found.group.iter().map(|&g| waiting[g].clone()).collect();
        let formed = Formed {
            match_id: new_id()?,
            seats: seat_group(variant, &entries),
        };
        if found.group.iter().all(|&g| g < own) {
            pass.formed.push(formed);
        } else {
            let (mine, theirs): (Vec<usize>, Vec<usize>) =
                found.group.iter().partition(|&&g| g < own);
            let take = |v: Vec<usize>| v.into_iter().map(|g| waiting[g].clone()).collect();
            pass.imports.push(Import {
                formed,
                own: take(mine),
                foreign: take(theirs),
                state: ImportState::Pending,
            });
        }
    }
    waiting.truncate(own);
    pool.waiting = waiting
        .into_iter()
        .zip(seated)
        .filter_map(|(e, s)| (!s).then_some(e))
        .collect();
    pool.formed.extend(pass.formed.iter().cloned());
    pool.importing.extend(pass.imports.iter().cloned());
    Ok(pass)
}

/// The house bot that completes a group (its tickets, the oldest first):
/// the level the oldest ticket that asked for one asked for, else the
/// level whose anchor is nearest the group's mean rating.
fn fill_bot(entries: &[Entry]) -> &str {
    if let Some(level) = entries.iter().find_map(|e| e.fill_level.as_deref()) {
        return level;
    }
    let rating = entries.iter().map(|e| e.rating).sum::<f64>() / entries.len().max(1) as f64;
    house_bot_near(rating)
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
    let bot = fill_bot(entries);
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
pub(super) mod tests {
    use super::*;

    /// A waiting bot ticket that accepts bots, for the queue's tests.
    pub(in crate::lobby::queue) fn entry(
        id: &str,
        players: &[&str],
        rating: f64,
        created_ms: u64,
    ) -> Entry {
        Entry {
            ticket: id.to_string(),
            players: players.iter().map(|p| p.to_string()).collect(),
            bots: vec![true; players.len()],
            rating,
            accept_bots: true,
            only_bots: false,
            fill_at_ms: None,
            fill_level: None,
            created_ms,
            expires_ms: created_ms + 600_000,
        }
    }

    fn pass(pool: &mut PoolRecord, variant: Variant, now: u64) -> Pass {
        let mut n = 0;
        run_pass(pool, variant, now, &[], || {
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
            ..PoolRecord::default()
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
            ..PoolRecord::default()
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
            ..PoolRecord::default()
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
            ..PoolRecord::default()
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
            ..PoolRecord::default()
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
    fn the_oldest_ticket_that_names_a_level_decides_the_fill() {
        let mut old = entry("o", &["o"], 1790.0, 0);
        let mut young = entry("y", &["y"], 1790.0, 1);
        assert_eq!(fill_bot(&[old.clone(), young.clone()]), "hard");
        young.fill_level = Some("easy".into());
        assert_eq!(fill_bot(&[old.clone(), young.clone()]), "easy");
        old.fill_level = Some("random".into());
        assert_eq!(fill_bot(&[old, young]), "random");
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
            ..PoolRecord::default()
        };
        let p = pass(&mut pool, Variant::Abarrotada3, 1_000);
        assert_eq!(p.expired.len(), 1);
        assert_eq!(p.expired[0].ticket, "old");
        assert!(p.formed.is_empty());
        assert_eq!(pool.waiting.len(), 2);
    }
}

#[cfg(test)]
mod growth {
    //! The pass against the plain quadratic pass it replaced (kept here as
    //! the reference), and the work it does beside tickets that cannot
    //! match anyone.
    use super::tests::entry;
    use super::*;

    /// The quadratic pass: every anchor sorts every compatible ticket.
    fn reference(pool: &mut PoolRecord, variant: Variant, now: u64) -> Vec<Vec<String>> {
        pool.waiting.retain(|e| now < e.expires_ms);
        let seats = variant.table().seats as usize;
        let mut left: Vec<Option<Entry>> = pool.waiting.drain(..).map(Some).collect();
        let mut groups = Vec::new();
        for i in 0..left.len() {
            let Some(anchor) = left[i].clone() else {
                continue;
            };
            let filling = anchor.fill_at_ms.is_some_and(|t| now >= t);
            let mut cands: Vec<usize> = (0..left.len())
                .filter(|&j| j != i)
                .filter(|&j| {
                    left[j]
                        .as_ref()
                        .is_some_and(|e| compatible(&anchor, e, now) && (!filling || e.accept_bots))
                })
                .collect();
            let d = |j: usize| (left[j].as_ref().unwrap().rating - anchor.rating).abs();
            cands.sort_by(|&a, &b| d(a).total_cmp(&d(b)).then(a.cmp(&b)));
            let (mut group, mut units) = (vec![i], anchor.players.len());
            for j in cands {
                let e = left[j].as_ref().unwrap();
                if units == seats
                    || units + e.players.len() > seats
                    || !group
                        .iter()
                        .all(|&g| compatible(left[g].as_ref().unwrap(), e, now))
                {
                    continue;
                }
                units += e.players.len();
                group.push(j);
            }
            if units < seats && !filling {
                continue;
            }
            let mut g: Vec<String> = group
                .iter()
                .map(|&g| left[g].take().unwrap().ticket)
                .collect();
            g.sort();
            groups.push(g);
        }
        groups
    }

    fn tickets_of(f: &Formed) -> Vec<String> {
        let mut t: Vec<String> = f.tickets().into_iter().map(str::to_string).collect();
        t.sort();
        t
    }

    /// A pool of `n` tickets drawn from `seed`: ratings 1300–1700, mixed
    /// ages, bots and humans, preferences, pairs, fill times.
    fn random_pool(n: usize, seed: u64) -> PoolRecord {
        let mut s = seed;
        let mut next = |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        let mut pool = PoolRecord::default();
        for i in 0..n {
            let pair = next(5) == 0;
            let players = if pair { 2 } else { 1 };
            let human = next(3) == 0;
            let accept_bots = next(4) != 0;
            let created = next(60_000);
            pool.waiting.push(Entry {
                ticket: format!("t{i}"),
                players: (0..players).map(|p| format!("p{i}-{p}")).collect(),
                bots: vec![!human; players],
                rating: 1300.0 + next(400) as f64,
                accept_bots,
                only_bots: accept_bots && next(6) == 0,
                fill_at_ms: (accept_bots && next(4) == 0).then(|| created + next(90_000)),
                fill_level: None,
                created_ms: created,
                expires_ms: created + 30_000 + next(600_000),
            });
        }
        pool
    }

    #[test]
    fn the_pass_forms_the_groups_the_quadratic_pass_formed() {
        for seed in 0..200 {
            for variant in [Variant::Pairs, Variant::Abarrotada3] {
                let pool = random_pool(1 + (seed as usize * 7) % 60, seed);
                let now = 60_000 + seed * 97;
                let want = reference(&mut pool.clone(), variant, now);
                let mut mine = pool.clone();
                let mut n = 0;
                let p = run_pass(&mut mine, variant, now, &[], || {
                    n += 1;
                    Ok(format!("m{n}"))
                })
                .unwrap();
                let got: Vec<Vec<String>> = p.formed.iter().map(tickets_of).collect();
                assert_eq!(got, want, "seed {seed}, {variant:?}");
            }
        }
    }

    /// `humans` humans that want only bots (nobody can sit with them) and
    /// eight bots at 1500, all waiting; the pass's work and matches.
    fn crowd_and_bots(humans: usize) -> (Pass, PoolRecord) {
        let mut pool = PoolRecord::default();
        for i in 0..humans {
            let mut e = entry(&format!("h{i}"), &[&format!("h{i}")], 1500.0, i as u64);
            e.bots = vec![false];
            e.only_bots = true;
            pool.waiting.push(e);
        }
        // The bots refuse humans, so the crowd cannot use them either.
        for i in 0..8 {
            let mut e = entry(&format!("b{i}"), &[&format!("b{i}")], 1500.0, 5_000);
            e.accept_bots = true;
            e.only_bots = true;
            pool.waiting.push(e);
        }
        let p = run_pass(&mut pool, Variant::Pairs, 6_000, &[], || Ok("m".into())).unwrap();
        (p, pool)
    }

    #[test]
    fn tickets_that_cannot_match_anyone_add_no_work_to_a_pass() {
        let (alone, _) = crowd_and_bots(0);
        let (crowded, pool) = crowd_and_bots(1_500);
        assert_eq!(alone.formed.len(), 2);
        assert_eq!(crowded.formed.len(), 2, "the bots are matched all the same");
        assert_eq!(pool.waiting.len(), 1_500);
        assert_eq!(
            crowded.examined, alone.examined,
            "the 1,500 humans are never read as company"
        );
        assert!(crowded.examined <= 8 * 7, "{}", crowded.examined);
        // Nothing but their expiry brings the pool a pass.
        assert_eq!(crowded.due_ms, Some(600_000));
    }

    #[test]
    fn the_pass_names_when_the_pool_next_needs_one() {
        // Two tickets 120 apart: their windows (±100) reach each other
        // after 10 s, which is when the pool is due.
        let mut pool = PoolRecord {
            waiting: vec![
                entry("a", &["a"], 1500.0, 0),
                entry("b", &["b"], 1620.0, 2_000),
            ],
            formed: Vec::new(),
            ..PoolRecord::default()
        };
        let p = run_pass(&mut pool, Variant::Abarrotada3, 3_000, &[], || {
            Ok("m".into())
        })
        .unwrap();
        assert_eq!(p.due_ms, Some(12_000));
        // A fill time sooner than that comes first.
        pool.waiting[1].fill_at_ms = Some(7_000);
        let p = run_pass(&mut pool, Variant::Abarrotada3, 3_000, &[], || {
            Ok("m".into())
        })
        .unwrap();
        assert_eq!(p.due_ms, Some(7_000));
    }
}
