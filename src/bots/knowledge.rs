//! What a seat can deduce from its view: the cards it has seen, the cards
//! still unseen, and the cards each other seat is known not to hold.
//!
//! Everything here is computed from a [`GameView`] alone, so a bot built on
//! it can never use a card its seat may not know.

use crate::rules::legal::{TrickSoFar, beating};
use crate::rules::trick::Trick;
use crate::rules::view::GameView;
use crate::rules::{Card, CardSet, Rules, Seat, Suit, Table, Trump};

/// A seat's knowledge of the hand in progress.
#[derive(Clone, Copy, Debug)]
pub struct Knowledge {
    /// The seating of the variant.
    pub table: Table,
    /// The seat this knowledge belongs to.
    pub seat: Seat,
    /// The trump suit (none under botifarra or before trump is named).
    pub trump: Option<Suit>,
    /// The cards of the variant's deck.
    pub deck: CardSet,
    /// The seat's own cards.
    pub hand: CardSet,
    /// Every card played in this hand (completed tricks and the current one).
    pub played: CardSet,
    /// The cards some other seat holds: the deck less own hand and played.
    pub unseen: CardSet,
    /// Per seat, cards it certainly does not hold: voids revealed by not
    /// following suit and cards it would have had to play to beat. Only
    /// public plays go into it, so it is the same for every observer.
    pub forbidden: [CardSet; 4],
    /// Per seat, the strictly weaker inference of voids only.
    pub voids: [CardSet; 4],
    /// How many cards each seat holds.
    pub sizes: [u8; 4],
    /// The trick being played (empty when the seat leads or outside play).
    pub trick: Trick,
    /// The rule options that change what a play reveals.
    options: Options,
}

/// The rule options [`reveals`] looks at.
#[derive(Clone, Copy, Debug)]
struct Options {
    forced: bool,
    must_trump: bool,
}

impl Knowledge {
    /// Everything `view` tells its seat. A spectator's view (no `you`) is read
    /// as seat 0 without a hand.
    pub fn from_view(view: &GameView) -> Knowledge {
        let rules: &Rules = &view.rules;
        let table = rules.variant.table();
        let trump = view.trump.and_then(Trump::suit);
        let hand: CardSet = view.hand.iter().flatten().copied().collect();
        let deck = rules.variant.deck();
        let mut k = Knowledge {
            table,
            seat: view.you.unwrap_or(0),
            trump,
            deck,
            hand,
            played: CardSet::EMPTY,
            unseen: deck & !hand,
            forbidden: [CardSet::EMPTY; 4],
            voids: [CardSet::EMPTY; 4],
            sizes: [0; 4],
            trick: Trick::default(),
            options: Options {
                forced: rules.forced,
                must_trump: rules.must_trump,
            },
        };
        for (s, &n) in view.hand_sizes.iter().enumerate().take(4) {
            k.sizes[s] = n;
        }
        for t in view.tricks.iter().chain(view.trick.as_ref()) {
            k.trick = Trick::led_by(t.leader);
            for pc in &t.cards {
                k.observe(pc.seat, pc.card);
            }
        }
        if view.trick.is_none() {
            k.trick = Trick::default();
        }
        k
    }

    /// The public knowledge when the first trick of a hand with `trump` is
    /// led by `leader`: nothing played, nothing inferred, no own hand.
    pub fn at_start(rules: &Rules, trump: Option<Suit>, leader: Seat) -> Knowledge {
        let table = rules.variant.table();
        let deck = rules.variant.deck();
        let per_seat = (deck.len() / u32::from(table.seats)) as u8;
        Knowledge {
            table,
            seat: leader,
            trump,
            deck,
            hand: CardSet::EMPTY,
            played: CardSet::EMPTY,
            unseen: deck,
            forbidden: [CardSet::EMPTY; 4],
            voids: [CardSet::EMPTY; 4],
            sizes: [per_seat; 4],
            trick: Trick::led_by(leader),
            options: Options {
                forced: rules.forced,
                must_trump: rules.must_trump,
            },
        }
    }

    /// Records that `seat` played `card` to the current trick: what the play
    /// revealed, and the trick (a new one, led by its winner, once complete).
    /// Hand sizes are left as they are.
    #[inline]
    pub fn observe(&mut self, seat: Seat, card: Card) {
        if let Some(seen) = self.trick.so_far(self.table, seat) {
            let f = reveals(self.options, self.table, self.trump, &seen, seat, card);
            self.forbidden[seat as usize] = self.forbidden[seat as usize] | f.forbidden;
            self.voids[seat as usize] = self.voids[seat as usize] | f.void;
        }
        self.played.insert(card);
        self.unseen.remove(card);
        self.trick.push(card, self.trump);
        if self.trick.len() == self.table.seats as usize {
            let leader = self.trick.winning(self.table).map_or(seat, |(s, _)| s);
            self.trick = Trick::led_by(leader);
        }
    }

    /// The same public knowledge as seen by `seat` holding `hand`.
    #[inline]
    pub fn for_seat(&self, seat: Seat, hand: CardSet) -> Knowledge {
        Knowledge {
            seat,
            hand,
            unseen: self.deck & !hand & !self.played,
            ..*self
        }
    }

    /// The cards another seat might hold: unseen and not excluded.
    pub fn possible(&self, s: Seat) -> CardSet {
        self.unseen & !self.forbidden[s as usize]
    }

    /// The seats after the seat to play that have yet to play to this trick.
    pub fn still_to_play(&self) -> impl Iterator<Item = Seat> + '_ {
        let played = self.trick.len() as u8;
        (1..self.table.seats - played).map(move |k| self.table.after(self.seat, k))
    }

    /// Whether `s` plays on the same side as this seat (never in abarrotada).
    pub fn is_partner(&self, s: Seat) -> bool {
        self.table.partners(self.seat, s)
    }

    /// Whether no unseen card of `c`'s suit is stronger than `c`.
    pub fn is_master(&self, c: Card) -> bool {
        (c.higher_in_suit() & self.unseen).is_empty()
    }
}

/// What a single play revealed about the player's hand.
struct Revealed {
    void: CardSet,
    forbidden: CardSet,
}

/// What playing `c` by `p` revealed, when `seen.winning` (by `seen.winner`) was
/// winning a trick led in `seen.led`.
///
/// - Not following the led suit reveals a void in it.
/// - An opponent of the winner who did not beat could not beat (docs/rules.md 4):
///   following, they hold no card of the suit that beats `w`; void, no trump
///   that beats it.
/// - With `must_trump`, a void player who did not trump holds no trump.
/// - In forced mode, a player who could not win and played a card the
///   narrowing allowed only as "the lowest of a suit" holds nothing lower in
///   that suit.
fn reveals(
    rules: Options,
    table: Table,
    trump: Option<Suit>,
    seen: &TrickSoFar,
    p: Seat,
    c: Card,
) -> Revealed {
    let TrickSoFar {
        led,
        winning: w,
        winner,
        partner_played,
    } = *seen;
    let mut out = Revealed {
        void: CardSet::EMPTY,
        forbidden: CardSet::EMPTY,
    };
    let followed = c.suit() == led;
    if !followed {
        out.void = led.mask();
    }
    let beat = beating(w, trump);
    let partner_winning = table.partners(p, winner);
    let did_beat = beat.contains(c);
    if !partner_winning && !did_beat {
        out.forbidden = if followed { beat & led.mask() } else { beat };
    }
    if rules.must_trump
        && !followed
        && let Some(t) = trump
        && c.suit() != t
    {
        out.forbidden = out.forbidden | t.mask();
    }
    if rules.forced && !partner_winning && !did_beat {
        // Could not win: the forced narrowing applied.
        let counting_ok = !followed && !partner_played;
        if !(c.is_counting() && counting_ok) {
            out.forbidden = out.forbidden | lower_in_suit(c);
        }
    }
    out.forbidden = out.forbidden | out.void;
    out
}

/// The cards of `c`'s suit weaker than `c`.
fn lower_in_suit(c: Card) -> CardSet {
    CardSet(c.suit().mask().0 & ((1u64 << c.index()) - 1))
}
