//! An independent, deliberately plain reading of docs/rules.md sections 1, 4,
//! 4.1 and 4.2, written from the text and not from the engine: lists of
//! cards, ranks looked up in the printed order. The property tests compare
//! the engine with it at every turn.

use botifarra::rules::trick::Trick;
use botifarra::rules::{Card, HandState, Seat, Suit, Table};

/// Ranks from high to low (docs/rules.md section 1).
const ORDER: [u8; 12] = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2];

/// Higher is stronger.
pub fn strength(c: Card) -> usize {
    11 - ORDER
        .iter()
        .position(|&r| r == c.rank())
        .expect("a rank 1-12")
}

/// Card points: 9 → 5, 1 → 4, 12 → 3, 11 → 2, 10 → 1.
pub fn points(c: Card) -> u32 {
    match c.rank() {
        9 => 5,
        1 => 4,
        12 => 3,
        11 => 2,
        10 => 1,
        _ => 0,
    }
}

/// 9, 1, 12, 11 or 10.
pub fn counting(c: Card) -> bool {
    points(c) > 0
}

/// Whether `c` beats `w`: same suit and higher, or a trump over a non-trump.
pub fn beats(c: Card, w: Card, trump: Option<Suit>) -> bool {
    (c.suit() == w.suit() && strength(c) > strength(w))
        || (Some(c.suit()) == trump && Some(w.suit()) != trump)
}

/// The position (0-based, in playing order) of the card winning `played`:
/// the highest trump, else the highest card of the suit led.
pub fn winner(played: &[Card], trump: Option<Suit>) -> usize {
    let led = played[0].suit();
    let trumps: Vec<usize> = (0..played.len())
        .filter(|&i| Some(played[i].suit()) == trump)
        .collect();
    let pool: Vec<usize> = if trumps.is_empty() {
        (0..played.len())
            .filter(|&i| played[i].suit() == led)
            .collect()
    } else {
        trumps
    };
    pool.into_iter()
        .max_by_key(|&i| strength(played[i]))
        .expect("a card was led")
}

/// The seat that won the complete trick `t`.
pub fn trick_winner_seat(t: &Trick, trump: Option<Suit>, table: Table) -> Seat {
    ((t.leader as usize + winner(t.cards(), trump)) % table.seats as usize) as Seat
}

/// Hand points per side of the tricks of `h`, counted from the cards.
pub fn recount(h: &HandState, table: Table) -> Vec<u32> {
    let trump = h.trump.and_then(|t| t.suit());
    let mut points = vec![0; table.sides() as usize];
    for t in &h.tricks {
        points[table.side(trick_winner_seat(t, trump, table)) as usize] +=
            1 + t.cards().iter().map(|&c| self::points(c)).sum::<u32>();
    }
    points
}

/// One seat about to play.
pub struct Spot<'a> {
    /// The cards the seat holds.
    pub hand: &'a [Card],
    /// The cards already on the table this trick, from the leader.
    pub played: &'a [Card],
    /// The trump suit, none under botifarra.
    pub trump: Option<Suit>,
    /// Partners sit opposite (the pairs game).
    pub pairs: bool,
    /// Option `forced` (4.1).
    pub forced: bool,
    /// Option `must_trump` (4.2).
    pub must_trump: bool,
}

fn lowest_of_each_suit(cards: &[Card]) -> Vec<Card> {
    let mut out = Vec::new();
    for s in Suit::ALL {
        if let Some(c) = cards
            .iter()
            .copied()
            .filter(|c| c.suit() == s)
            .min_by_key(|&c| strength(c))
        {
            out.push(c);
        }
    }
    out
}

/// The legal cards, sorted by index.
pub fn legal(spot: &Spot) -> Vec<Card> {
    let mut out = legal_unsorted(spot);
    out.sort();
    out.dedup();
    out
}

fn legal_unsorted(spot: &Spot) -> Vec<Card> {
    let h: Vec<Card> = spot.hand.to_vec();
    if spot.played.is_empty() {
        return h;
    }
    let pos = spot.played.len();
    let led = spot.played[0].suit();
    let wi = winner(spot.played, spot.trump);
    let w = spot.played[wi];
    // The partner plays two places before (already played) or after.
    let partner_played = spot.pairs && pos >= 2;
    let partner_winning = partner_played && wi == pos - 2;
    let f: Vec<Card> = h.iter().copied().filter(|c| c.suit() == led).collect();
    let void = f.is_empty();
    let trumps: Vec<Card> = h
        .iter()
        .copied()
        .filter(|c| Some(c.suit()) == spot.trump)
        .collect();
    let beating = |cards: &[Card]| -> Vec<Card> {
        cards
            .iter()
            .copied()
            .filter(|&c| beats(c, w, spot.trump))
            .collect()
    };

    let s: Vec<Card> = if partner_winning {
        if void && spot.must_trump && !trumps.is_empty() {
            trumps.clone()
        } else if void {
            h.clone()
        } else {
            f.clone()
        }
    } else {
        let pool = if void { h.clone() } else { f.clone() };
        let b = beating(&pool);
        if !b.is_empty() {
            b
        } else if void && spot.must_trump && !trumps.is_empty() {
            trumps.clone()
        } else {
            pool
        }
    };

    if !spot.forced || !beating(&s).is_empty() {
        return s;
    }
    // Forced mode: the player cannot win the trick.
    if !void {
        let lowest = s
            .iter()
            .copied()
            .min_by_key(|&c| strength(c))
            .expect("non-empty");
        let mut out = vec![lowest];
        if partner_winning {
            out.extend(s.iter().copied().filter(|&c| counting(c)));
        }
        return out;
    }
    let mut out = lowest_of_each_suit(&s);
    if partner_winning || !partner_played {
        out.extend(s.iter().copied().filter(|&c| counting(c)));
    }
    out
}
