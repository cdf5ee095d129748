//! Which cards may be played (docs/rules.md section 4, 4.1, 4.2 and 10).
//!
//! The legal set is computed in three narrowing stages over bit masks:
//! follow suit; beat the opponents (or trump, with `must_trump`); and the
//! forced mode. A card outside the final set is explained by the first stage
//! that excluded it.

use super::card::{Card, CardSet, Suit};
use super::refusal::RuleError;
use super::seat::{Seat, Table};

/// Everything the play rules look at for one seat about to play.
#[derive(Clone, Copy, Debug)]
pub struct PlayContext {
    /// The cards the seat holds.
    pub hand: CardSet,
    /// The trump suit (none under botifarra).
    pub trump: Option<Suit>,
    /// The suit led, the winning card and its seat, unless the seat leads.
    pub trick: Option<TrickSoFar>,
    /// Who is about to play.
    pub seat: Seat,
    /// The seating, for partnership.
    pub table: Table,
    /// Forced mode (4.1).
    pub forced: bool,
    /// Must-trump (4.2).
    pub must_trump: bool,
}

/// The state of a trick that has been led.
#[derive(Clone, Copy, Debug)]
pub struct TrickSoFar {
    /// The suit led.
    pub led: Suit,
    /// The card winning so far.
    pub winning: Card,
    /// Who played it.
    pub winner: Seat,
    /// Whether the player's partner has already played to this trick.
    pub partner_played: bool,
}

/// The cards that beat `w`: stronger cards of its suit, and every trump when
/// `w` is not a trump.
#[inline]
pub fn beating(w: Card, trump: Option<Suit>) -> CardSet {
    // Without a branch: when `w` is a trump, the trump mask minus its own
    // suit is empty.
    let trumps = trump.map_or(0, |t| t.mask().0);
    CardSet(w.higher_in_suit().0 | (trumps & !w.suit_mask().0))
}

/// Whether `c` beats `w` (docs/rules.md section 4).
#[inline]
pub fn beats(c: Card, w: Card, trump: Option<Suit>) -> bool {
    beating(w, trump).contains(c)
}

/// The three successive sets of stage 1 (follow), 2 (beat/trump) and 3
/// (forced) for a trick that has been led, each a subset of the one before,
/// with the rule a card outside each stage breaks. A stage that narrows
/// nothing repeats the rule of the one before: a card it leaves out was
/// already left out there.
fn stages(ctx: &PlayContext, t: TrickSoFar) -> [(CardSet, RuleError); 3] {
    let h = ctx.hand;
    let follow = h.of_suit(t.led);
    let s1 = if follow.is_empty() { h } else { follow };
    let r1 = RuleError::MustFollowSuit(t.led);
    let beat = beating(t.winning, ctx.trump);
    let trumps = ctx.trump.map_or(CardSet::EMPTY, |s| h.of_suit(s));
    let partner_winning = ctx.table.partners(ctx.seat, t.winner);

    let must_trump = follow.is_empty() && ctx.must_trump && !trumps.is_empty();
    let (s2, r2) = if !partner_winning && !(s1 & beat).is_empty() {
        let reason = if follow.is_empty() {
            RuleError::MustTrumpToBeat(t.winning)
        } else {
            RuleError::MustBeat(t.winning)
        };
        (s1 & beat, reason)
    } else if must_trump {
        (trumps, RuleError::MustTrump)
    } else {
        (s1, r1)
    };

    let s3 = if ctx.forced && (s2 & beat).is_empty() {
        let counting_ok = partner_winning || (follow.is_empty() && !t.partner_played);
        let lowest = if follow.is_empty() {
            h.lowest_of_each_suit()
        } else {
            s2.lowest().map_or(CardSet::EMPTY, Card::bit)
        };
        let allowed = if counting_ok {
            lowest | s2.counting()
        } else {
            lowest
        };
        let reason = RuleError::ForcedLowest {
            suit: (!follow.is_empty()).then_some(t.led),
            counting_allowed: counting_ok,
        };
        (s2 & allowed, reason)
    } else {
        (s2, r2)
    };
    [(s1, r1), (s2, r2), s3]
}

/// The legal cards for the seat; never empty while it holds a card.
///
/// The same sets as the staged narrowing behind [`why_illegal`], without the
/// reasons, from a [`PlayContext`]
/// (the engine reads the same narrowing straight from its hand state).
#[inline]
pub fn legal_cards(ctx: &PlayContext) -> CardSet {
    let Some(t) = ctx.trick else { return ctx.hand };
    narrow(&Narrowing {
        hand: ctx.hand,
        led: t.led.mask(),
        beat: beating(t.winning, ctx.trump),
        trump: ctx.trump.map_or(CardSet::EMPTY, Suit::mask),
        partner_winning: ctx.table.partners(ctx.seat, t.winner),
        partner_played: t.partner_played,
        forced: ctx.forced,
        must_trump: ctx.must_trump,
    })
}

/// What the play rules narrow a hand by when a trick has been led, as bit
/// masks: the one place the rules of [`legal_cards`] are written, shared by
/// the engine's own hot path ([`super::HandState::legal_cards`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Narrowing {
    /// The cards the seat holds.
    pub hand: CardSet,
    /// Every card of the suit led.
    pub led: CardSet,
    /// The cards that beat the winning card ([`beating`]).
    pub beat: CardSet,
    /// Every card of the trump suit (empty under botifarra).
    pub trump: CardSet,
    /// Whether the seat's partner is winning the trick.
    pub partner_winning: bool,
    /// Whether the seat's partner has played to the trick.
    pub partner_played: bool,
    /// Forced mode (4.1).
    pub forced: bool,
    /// Must-trump (4.2).
    pub must_trump: bool,
}

/// [`legal_cards`] for a trick that has been led.
#[inline]
pub(crate) fn narrow(n: &Narrowing) -> CardSet {
    let h = n.hand;
    let beat = n.beat;
    // Written as selects rather than branches: in random play every one of
    // these conditions is a coin toss.
    let follow = h & n.led;
    let s1 = if follow.is_empty() { h } else { follow };
    let trumps = h & n.trump;
    let must_trump = n.must_trump && follow.is_empty() && !trumps.is_empty();
    let fallback = if must_trump { trumps } else { s1 };
    let beating_cards = s1 & beat;
    let s2 = if !n.partner_winning && !beating_cards.is_empty() {
        beating_cards
    } else {
        fallback
    };
    if !n.forced || !(s2 & beat).is_empty() {
        return s2;
    }
    let counting_ok = n.partner_winning || (follow.is_empty() && !n.partner_played);
    let lowest = if follow.is_empty() {
        h.lowest_of_each_suit()
    } else {
        s2.lowest().map_or(CardSet::EMPTY, Card::bit)
    };
    s2 & if counting_ok {
        lowest | s2.counting()
    } else {
        lowest
    }
}

/// The rule `card` breaks, or `None` when it may be played.
pub fn why_illegal(ctx: &PlayContext, card: Card) -> Option<RuleError> {
    if !ctx.hand.contains(card) {
        return Some(RuleError::NotInHand(card));
    }
    let t = ctx.trick?;
    let stages = stages(ctx, t);
    debug_assert_eq!(stages[2].0, legal_cards(ctx));
    stages
        .into_iter()
        .find(|(set, _)| !set.contains(card))
        .map(|(_, reason)| reason)
}
