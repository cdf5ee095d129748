//! Sure points: what the side of the seat to lead takes whatever the others
//! do, by cashing its masters (a quick-trick bound).
//!
//! The leader holds the strongest trumps still in play: each wins its trick
//! (led one after the other, the leader keeps the lead), and every other
//! seat follows each with a trump while it has one (so gives at least its
//! lowest trumps' points); a seat that held no more trumps than were led
//! is out of them after. Then, suit by suit, the leader's masters of a
//! plain suit: the `j`-th wins when every other seat that still holds a
//! trump also holds at least `j` cards of the suit (it must follow, so it
//! cannot trump). The opponents follow with their lowest cards first, so a
//! card of the leader's wins as well once every seat that still holds the
//! suit holds only weaker ones (the cards left of a suit the others ran
//! out of; all the partner's cards of the suit must be weaker, whichever
//! it plays). Leading a trump or a master only ever takes cards of the suit
//! led from a seat that holds a trump, so the counts of the other suits
//! stay true. Each such trick is worth at least its master's points
//! and the trick point, and every other seat follows each master with a
//! card of its suit while it holds one: its lowest ones' points at least
//! (a card it threw on an earlier lead went to the leader's side as well);
//! a seat with fewer cards of a suit than leads of it throws others, its
//! cheapest ones left at least. The leader's partner is on the side that
//! takes those tricks, so it follows with its dearest cards of the suit
//! and throws its dearest others.
//! In the pairs game the leader may then cross to its partner with a low
//! card of a suit it has not led whose master the partner holds, and the
//! partner cashes its masters of the suits the leader did not lead, under
//! the same rule for the ruffs (and the same count of what follows them;
//! the opponents' throws are then counted over both seats' leads).

use crate::rules::{CardSet, Suit};

use super::pos::Pos;

/// The hand points the side of the seat to lead (at a trick start) takes
/// at least: what the leader cashes, then in the pairs game what its
/// partner cashes once the leader has crossed to it.
pub(super) fn sure_points(pos: &Pos) -> i32 {
    let cashed = leader_cashes(pos);
    let alone = thrown(pos, cashed.led, &cashed.given, true);
    let crossed = match partner_points(pos, &cashed) {
        Some((points, led, given)) => {
            let both = std::array::from_fn(|i| cashed.led[i] + led[i]);
            points + thrown(pos, both, &given, false)
        }
        None => 0,
    };
    cashed.points + alone.max(crossed)
}

/// What the leader cashes alone at a trick start ([`leader_cashes`]).
pub(super) struct Cashed {
    /// The hand points its side takes.
    pub points: i32,
    /// Its leads of each suit, in [`Suit::ALL`]'s order (trumps included).
    led: [u32; 4],
    /// How many of them were trumps.
    rounds: u32,
    /// The other seats that still hold a trump after them (a bit each).
    ruff: u8,
    /// The cards each other seat follows them with ([`follows`]).
    given: [CardSet; 4],
}

/// What the leader cashes alone (at a trick start).
pub(super) fn leader_cashes(pos: &Pos) -> Cashed {
    let leader = pos.turn as usize;
    let hand = pos.hands[leader];
    let alive = pos.held();
    let trumps = pos.trump_mask();
    let mut sure = 0;
    let mut given = [CardSet::EMPTY; 4];
    // Trump leads cashed: every other seat follows each with a trump while
    // it holds one (its lowest ones' points at least), and a seat with no
    // more trumps than that is out of them after.
    let mut rounds = 0;
    if let Some(t) = pos.trump {
        let in_play = alive & t.mask();
        let (points, n) = cash(pos, leader, in_play, in_play.len());
        sure += points + followed(pos, in_play, n, leader, &mut given);
        rounds = n;
    }
    let mut ruff = 0u8;
    for (i, &h) in pos.hands.iter().enumerate() {
        if i != leader && (h & trumps).len() > rounds {
            ruff |= 1 << i;
        }
    }
    // The number of leads of each suit the leader cashed (trump included).
    let mut led = [0u32; 4];
    for (i, s) in Suit::ALL.into_iter().enumerate() {
        if Some(s) == pos.trump {
            led[i] = rounds;
            continue;
        }
        // Masters cashed: at most as many as the shortest holding of a
        // seat that could ruff (all of them when none could).
        let in_play = alive & s.mask();
        if highest(in_play).is_some_and(|c| hand.contains(c)) {
            let (points, n) = cash(pos, leader, in_play, ruff_limit(pos, in_play, ruff));
            sure += points + followed(pos, in_play, n, leader, &mut given);
            led[i] = n;
        }
    }
    Cashed {
        points: sure,
        led,
        rounds,
        ruff,
        given,
    }
}

/// How many leads of a suit whose cards in play are `suit` surely go
/// round with every seat of `ruff` (a bit each) following: the shortest
/// of their holdings (all of the suit when `ruff` is empty).
fn ruff_limit(pos: &Pos, suit: CardSet, ruff: u8) -> u32 {
    let mut most = suit.len();
    for (i, &h) in pos.hands.iter().enumerate() {
        if ruff & (1 << i) != 0 {
            most = most.min((h & suit).len());
        }
    }
    most
}

/// In the pairs game, after the leader has cashed what `cashed` says,
/// the points of the partner's masters of the plain suits the leader did
/// not lead, once the leader crosses to the partner with a low card of one
/// of them: the partner's `j`-th master of a suit wins, and the partner
/// keeps the lead, when every seat that may have to ruff holds at least
/// `j` cards of it: an opponent that still holds a trump, and under
/// must-trump the leader too when it still holds one (a seat void in the
/// suit must then trump even its partner's master). (The leader's cards
/// in those suits are never led before the crossing, and an opponent that
/// could ruff followed every lead.) The partner plays a card on each of
/// the leader's leads, so it must hold as many cards besides its masters.
fn partner_points(pos: &Pos, cashed: &Cashed) -> Option<(i32, [u32; 4], [CardSet; 4])> {
    let partner = pos.table.partner(pos.turn)?;
    let leader = pos.turn as usize;
    let (hand, mine) = (pos.hands[partner as usize], pos.hands[leader]);
    let led = cashed.led;
    let mut ruffers = cashed.ruff & !(1 << partner);
    if pos.must_trump && (mine & pos.trump_mask()).len() > cashed.rounds {
        ruffers |= 1 << leader;
    }
    let alive = pos.held();
    let (mut sure, mut masters, mut entry) = (0, 0, false);
    let mut cashes = [0u32; 4];
    let mut given = cashed.given;
    for (i, s) in Suit::ALL.into_iter().enumerate() {
        let in_play = alive & s.mask();
        if Some(s) == pos.trump || led[i] > 0 || !highest(in_play).is_some_and(|c| hand.contains(c))
        {
            continue;
        }
        let (points, n) = cash(
            pos,
            partner as usize,
            in_play,
            ruff_limit(pos, in_play, ruffers),
        );
        entry |= n > 0 && !(mine & s.mask()).is_empty();
        sure += points + followed(pos, in_play, n, partner as usize, &mut given);
        masters += n;
        cashes[i] = n;
    }
    (entry && hand.len() >= masters + led.iter().sum::<u32>()).then_some((sure, cashes, given))
}

/// The points the seats other than `cashing` give at least on `n` leads of
/// a suit whose cards in play are `suit`: each must follow with a card of
/// it while it holds one ([`follows`]). The cards are added to `given`,
/// seat by seat.
fn followed(pos: &Pos, suit: CardSet, n: u32, cashing: usize, given: &mut [CardSet; 4]) -> i32 {
    if n == 0 {
        return 0;
    }
    let partner = pos.table.partner(cashing as u8).map(usize::from);
    let mut points = 0;
    for (i, &h) in pos.hands.iter().enumerate() {
        if i != cashing {
            let f = follows(h & suit, n, partner == Some(i));
            points += f.points() as i32;
            given[i] = given[i] | f;
        }
    }
    points
}

/// The cards of one suit, `held`, a seat follows `n` leads of it with: an
/// opponent of the seat that leads them its lowest (the fewest points), the
/// partner its highest (the most: its side takes them).
fn follows(held: CardSet, n: u32, partner: bool) -> CardSet {
    let mut out = CardSet::EMPTY;
    let mut rest = held;
    for _ in 0..n.min(held.len()) {
        let c = if partner {
            highest(rest)
        } else {
            rest.lowest()
        };
        let Some(c) = c else { break };
        rest.remove(c);
        out.insert(c);
    }
    out
}

/// What the other seats give at least on `led` (how many leads of each
/// suit, in [`Suit::ALL`]'s order, all won by the leader's side) besides
/// the cards of the suits led that they follow with (`given`, counted by
/// [`followed`]): each plays a card on every lead, so a seat that holds
/// fewer cards of a suit than there were leads of it throws others: an
/// opponent its cheapest ones left at least, the partner (counted only
/// with `partner_too`) its dearest.
fn thrown(pos: &Pos, led: [u32; 4], given: &[CardSet; 4], partner_too: bool) -> i32 {
    let leads: u32 = led.iter().sum();
    if leads == 0 {
        return 0;
    }
    let partner = pos.table.partner(pos.turn).map(usize::from);
    let mut points = 0;
    for (i, &h) in pos.hands.iter().enumerate() {
        let mine = partner == Some(i);
        if i == pos.turn as usize || mine && !partner_too {
            continue;
        }
        // An opponent with as many zero-point cards as leads throws
        // zero-point cards whatever it follows with; a partner without a
        // counting card gives nothing.
        let gives_nothing = if mine {
            h.counting().is_empty()
        } else {
            (h & !h.counting()).len() >= leads
        };
        let mut throws = leads - given[i].len();
        if gives_nothing || throws == 0 {
            continue;
        }
        let left = h & !given[i];
        // The cheapest cards left (the zero-point ones, then by points), or
        // for the partner the dearest.
        if !mine {
            throws = throws.saturating_sub((left & !left.counting()).len());
        }
        for k in 1..=5u32 {
            if throws == 0 {
                break;
            }
            let p = if mine { 6 - k } else { k };
            // The cards of `p` points: strength 6 + p of every suit.
            let worth = CardSet(left.0 & (0x0010_0100_1001u64 << (6 + p))).len();
            let n = worth.min(throws);
            points += (n * p) as i32;
            throws -= n;
        }
    }
    points
}

/// The points of the strongest trumps still in play that one side holds,
/// from the top down to the first held by the other side: wherever each
/// is played, the trick goes to that side (only a stronger trump beats
/// it). And a trick point for each of them that one seat holds (a seat
/// plays one card a trick; two partners may put theirs on the same
/// trick). Answered for the seats of `ours` (a mask of seats) and for the
/// others: only the side that holds the strongest trump has any.
pub(super) fn top_trumps(pos: &Pos, ours: u8) -> (i32, i32) {
    let Some(t) = pos.trump else { return (0, 0) };
    let mut suit = pos.alive() & t.mask();
    let Some(top) = highest(suit) else {
        return (0, 0);
    };
    // The side of the seat that holds the strongest trump (a trump on the
    // trick in progress is nobody's: then neither side has any).
    let Some(holder) = pos.hands.iter().position(|h| h.contains(top)) else {
        return (0, 0);
    };
    let side = if ours & (1 << holder) != 0 {
        ours
    } else {
        !ours
    };
    let mut mine = CardSet::EMPTY;
    for (i, &h) in pos.hands.iter().enumerate() {
        if side & (1 << i) != 0 {
            mine = mine | h;
        }
    }
    let mut sure = 0;
    let mut count = [0i32; 4];
    while let Some(top) = highest(suit) {
        if !mine.contains(top) {
            break;
        }
        sure += i32::from(top.points());
        for (n, h) in count.iter_mut().zip(pos.hands) {
            *n += i32::from(h.contains(top));
        }
        suit.remove(top);
    }
    let sure = sure + count.into_iter().max().unwrap_or(0);
    if side == ours { (sure, 0) } else { (0, sure) }
}

/// The points of at most `most` leads of `seat`'s strongest cards of a
/// suit whose cards in play are `suit`, each winning its trick, and how
/// many were led. A card wins when no other seat that still holds a card
/// of the suit holds a stronger one: the other seats follow with their
/// lowest cards first (the partner, whose cards are counted only when all
/// of them are weaker, whatever it plays), so once the masters are gone
/// the cards left of a seat the others ran out of win too.
fn cash(pos: &Pos, seat: usize, suit: CardSet, most: u32) -> (i32, u32) {
    let mut mine = pos.hands[seat] & suit;
    // Each other seat holding the suit: how many, and its strongest.
    let mut others = [(0u32, 0u8); 3];
    let mut k = 0;
    for (i, &h) in pos.hands.iter().enumerate() {
        if let Some(strongest) = highest(h & suit)
            && i != seat
            && k < 3
        {
            others[k] = ((h & suit).len(), strongest.index());
            k += 1;
        }
    }
    let (mut sure, mut n) = (0, 0);
    while n < most {
        let Some(top) = highest(mine) else { break };
        if others[..k]
            .iter()
            .any(|&(len, strongest)| len > n && strongest > top.index())
        {
            break;
        }
        sure += i32::from(top.points()) + 1;
        mine.remove(top);
        n += 1;
    }
    (sure, n)
}

/// The strongest card of a set of one suit.
pub(super) fn highest(s: CardSet) -> Option<crate::rules::Card> {
    (!s.is_empty()).then(|| crate::rules::Card::from_index(63 - s.0.leading_zeros() as u8))?
}
