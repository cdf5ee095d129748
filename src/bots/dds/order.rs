//! Move ordering: the distinct legal cards of the seat to play, the most
//! promising first, in a fixed array (no allocation per position).

use crate::rules::legal::beating;
use crate::rules::trick::Facing;
use crate::rules::{Card, CardSet, Suit};

use super::super::solver::leads_run;
use super::bounds::highest;
use super::pos::Pos;

/// At most twelve moves, best guesses first.
pub(super) struct Moves {
    cards: [Card; 12],
    len: usize,
}

impl Moves {
    /// The moves in order.
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len]
    }
}

/// The distinct legal cards of `pos` (one per run of interchangeable cards),
/// the `first` ones in that order (the table's card, the killer lead),
/// then by the guess of [`score`]. `beat`: the cards that would take the
/// lead of the trick.
///
/// The cards are sorted where they are returned, one byte at a time: a
/// copy of byte-wise built arrays read back a word at a time stalls the
/// processor, and this runs at every position searched.
pub(super) fn ordered(pos: &Pos, legal: CardSet, beat: CardSet, first: [Option<Card>; 2]) -> Moves {
    let seen = Seen::of(pos);
    let mut out = Moves {
        cards: [Card::default(); 12],
        len: 0,
    };
    let mut scores = [0i32; 12];
    for c in legal.iter() {
        if !leads_run(c, legal, seen.alive) || out.len == 12 {
            continue;
        }
        let s = match first.iter().position(|&f| f == Some(c)) {
            Some(i) => 10_000 - i as i32,
            None => score(pos, &seen, c, beat.contains(c)),
        };
        // Insertion sort: at most twelve cards.
        let mut i = out.len;
        while i > 0 && scores[i - 1] < s {
            scores[i] = scores[i - 1];
            out.cards[i] = out.cards[i - 1];
            i -= 1;
        }
        scores[i] = s;
        out.cards[i] = c;
        out.len += 1;
    }
    out
}

/// What [`score`] needs of the position, worked out once per position.
struct Seen {
    /// The cards in play.
    alive: CardSet,
    /// The trick as the seat to play faces it (none when it leads).
    facing: Option<Facing>,
    /// Whether the seat to play is the trick's last.
    last: bool,
    /// The hands of the opponents that play after it on this trick (every
    /// opponent when it leads); empty past them.
    later: [CardSet; 3],
    /// The partner's hand (empty without partners).
    partner: CardSet,
}

impl Seen {
    fn of(pos: &Pos) -> Seen {
        let mut later = [CardSet::EMPTY; 3];
        let mut len = 0;
        let mut seat = pos.turn;
        let partner = pos.table.partner(pos.turn);
        for _ in pos.trick.len() + 1..pos.table.seats as usize {
            seat = pos.table.next(seat);
            if partner != Some(seat) {
                later[len] = pos.hands[seat as usize];
                len += 1;
            }
        }
        Seen {
            alive: pos.alive(),
            facing: pos.trick.facing(pos.table, pos.turn),
            last: pos.trick.len() + 1 == pos.table.seats as usize,
            later,
            partner: partner.map_or(CardSet::EMPTY, |p| pos.hands[p as usize]),
        }
    }

    /// Whether an opponent still to play on the trick led in `led` may beat
    /// `c` (it follows suit when it can, else any card).
    fn overtaken(&self, led: CardSet, c: Card, trump: Option<Suit>) -> bool {
        let beats = beating(c, trump);
        // An empty hand plays nothing, so beats nothing.
        self.later.iter().any(|&h| {
            let follow = h & led;
            let playable = if follow.is_empty() { h } else { follow };
            !(playable & beats).is_empty()
        })
    }
}

/// A guess of how good `c` is for the seat to play (`takes`: whether it
/// takes the lead of the trick).
///
/// A master (no stronger card of its suit in play) wins a trick of its own
/// later, so it is the last card loaded on the partner's trick and the
/// last one to take a trick the seat wins anyway. A card no opponent still
/// to play can beat takes first; when the last seat can beat the partner's
/// card, the third seat takes with such a card or plays cheap.
fn score(pos: &Pos, seen: &Seen, c: Card, takes: bool) -> i32 {
    let master = (c.higher_in_suit() & seen.alive).is_empty();
    let Some(f) = seen.facing else {
        return lead_score(pos, seen, c, master);
    };
    let p = i32::from(c.points());
    let s = i32::from(c.strength());
    let trump = pos.trump == Some(c.suit());
    if f.partner_winning {
        if !seen.last && seen.overtaken(f.led, f.winning, pos.trump) {
            return if takes && !seen.overtaken(f.led, c, pos.trump) {
                150 + 4 * p
            } else {
                100 - 4 * p - s
            };
        }
        // The partner keeps the trick: load points on it.
        return match (master, seen.last) {
            (true, true) => 100 - s,
            (true, false) => 90 - s,
            (false, true) => 100 + 4 * p,
            (false, false) => 100 + 2 * p - s,
        };
    }
    if takes {
        if !seen.last && !seen.overtaken(f.led, c, pos.trump) {
            return 250 + 4 * p - s / 4;
        }
        // The cheapest card that takes; trumps after the suit's own cards.
        let cheapest = 200 - s - 12 * i32::from(trump);
        return match (seen.last, master) {
            (false, _) => cheapest,
            (true, true) => cheapest - 10,
            (true, false) => cheapest + 4 * p,
        };
    }
    -4 * p - s
}

/// [`score`] of a lead: masters and points first (a plain master that an
/// opponent void in its suit can trump after the others); then low cards
/// of a suit the partner can trump, and to the partner's master; then low
/// cards of long suits.
fn lead_score(pos: &Pos, seen: &Seen, c: Card, master: bool) -> i32 {
    let p = i32::from(c.points());
    let s = i32::from(c.strength());
    let trump = pos.trump == Some(c.suit());
    if master {
        // Only an opponent void in its suit can beat a master: by trumping.
        let ruffed = seen.overtaken(c.suit_mask(), c, pos.trump);
        return if ruffed { 150 + 4 * p } else { 300 + 4 * p };
    }
    let partner = seen.partner;
    if !trump && (partner & c.suit_mask()).is_empty() && !(partner & pos.trump_mask()).is_empty() {
        return 260 - s - 4 * p;
    }
    if highest(seen.alive & c.suit_mask()).is_some_and(|t| partner.contains(t)) {
        return 250 - s - 4 * p;
    }
    s - 4 * p - 20 * i32::from(trump)
}

#[cfg(test)]
mod tests {
    use super::super::pos::Pos;
    use super::super::tests::{card, trick_start};
    use super::ordered;
    use crate::rules::{Card, Rules, Suit, Trump};

    /// The moves of the pairs game's seat to play once `played` are on the
    /// trick seat 0 led, with these hands and oros trump.
    fn moves_after(hands: [&str; 4], played: &[&str]) -> Vec<Card> {
        let rules = Rules::default();
        let table = rules.variant.table();
        let mut h = trick_start(hands, Trump::Suit(Suit::Oros));
        for &c in played {
            assert!(h.legal_cards(&rules, table).contains(card(c)), "{c}");
            h.play_known(table, card(c));
        }
        let pos = Pos::new(&rules, &h);
        let (legal, beat) = pos.legal();
        ordered(&pos, legal, beat, [None; 2]).as_slice().to_vec()
    }

    #[test]
    fn a_lead_the_partner_can_trump_comes_first() {
        // No card of seat 0 is a master; its partner holds no bastos and
        // the 5 of oros (trump).
        let moves = moves_after(["2B 3C 4E", "9B 9C 9E", "5O 5C 5E", "1B 1C 1E"], &[]);
        assert_eq!(moves, [card("2B"), card("4E"), card("3C")]);
    }

    #[test]
    fn the_partner_s_trick_gets_the_masters_last() {
        // Seat 1's 9 of espases keeps the trick; seat 3, void, loads the 12
        // of copes first and keeps the 1 of bastos (no 9 of bastos left) to
        // win a trick of its own.
        let moves = moves_after(
            ["4E 1C 3C", "9E 5C 6C", "5E 7C 8C", "1B 12C 2B"],
            &["4E", "9E", "5E"],
        );
        assert_eq!(moves.first(), Some(&card("12C")), "{moves:?}");
        assert_eq!(moves.last(), Some(&card("1B")), "{moves:?}");
    }

    #[test]
    fn a_card_no_opponent_left_can_beat_takes_first() {
        // Seat 1 must beat the 4 of espases: the 5 would lose to seat 2's 1,
        // the 9 wins the trick.
        let moves = moves_after(["4E 2C 3C", "9E 5E 6C", "1E 7C 8C", "2B 3B 4B"], &["4E"]);
        assert_eq!(moves, [card("9E"), card("5E")]);
        // Seat 2's partner leads the 12 of espases, which seat 3's 9 beats:
        // seat 2 gives the 10 rather than its 1 (which the 9 beats too).
        let moves = moves_after(
            ["12E 2C 3C", "5E 5C 6C", "1E 10E 8C", "9E 3B 4B"],
            &["12E", "5E"],
        );
        assert_eq!(moves.first(), Some(&card("10E")), "{moves:?}");
    }
}
