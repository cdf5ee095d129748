//! Determinization: random deals of the unseen cards consistent with
//! everything a seat has seen.
//!
//! The only input is the seat's [`GameView`] (through [`Knowledge`]): its own
//! hand, the cards played, each seat's hand size, and the cards each seat has
//! shown it does not hold. Cards are dealt one at a time in random order, each
//! to a seat chosen with probability proportional to the room left in its
//! hand among the seats that may hold it, keeping a complete deal possible at
//! every step (Hall's condition over the at most three other seats), so the
//! sampler never dead-ends.

use rand::Rng;

use super::knowledge::Knowledge;
use crate::rules::random::{below, random_card};
use crate::rules::view::GameView;
use crate::rules::{Card, CardSet};

/// `n` deals of the cards `view`'s seat cannot see, each as the four seats'
/// hands (the seat's own hand exact; unused seats empty).
///
/// Every deal gives each seat exactly `view.hand_sizes` cards, never a card
/// already played, and respects every void and every "could not beat"
/// inference of [`Knowledge`]. The result depends only on `view` and `rng`.
pub fn sample_deals<R: Rng>(view: &GameView, n: usize, rng: &mut R) -> Vec<[CardSet; 4]> {
    let k = Knowledge::from_view(view);
    let sampler = Sampler::new(&k);
    (0..n).map(|_| sampler.sample(rng)).collect()
}

/// A reusable sampler for one seat's knowledge.
#[derive(Clone, Debug)]
pub struct Sampler {
    own: CardSet,
    me: usize,
    unseen: CardSet,
    /// The other seats that hold cards.
    others: Vec<usize>,
    /// Per other seat, the cards it may hold.
    allowed: Vec<u64>,
    /// Per other seat, how many cards it holds.
    need: Vec<u32>,
    /// Whether a deal exists that respects `allowed` and `need` (decided
    /// once, in [`Sampler::new`]).
    feasible: bool,
}

impl Sampler {
    /// A sampler for this knowledge. Uses every inference when a deal exists
    /// that satisfies them all; otherwise (never expected) only the voids,
    /// and as a last resort the hand sizes alone.
    pub fn new(k: &Knowledge) -> Sampler {
        let me = k.seat as usize;
        let others: Vec<usize> = (0..k.table.seats as usize)
            .filter(|&s| s != me && k.sizes[s] > 0)
            .collect();
        let need: Vec<u32> = others.iter().map(|&s| u32::from(k.sizes[s])).collect();
        let mut sampler = Sampler {
            own: k.hand,
            me,
            unseen: k.unseen,
            others,
            allowed: Vec::new(),
            need,
            feasible: false,
        };
        for excluded in [k.forbidden, k.voids, [CardSet::EMPTY; 4]] {
            sampler.allowed = sampler
                .others
                .iter()
                .map(|&s| (k.unseen & !excluded[s]).0)
                .collect();
            sampler.feasible = feasible(k.unseen.0, &sampler.allowed, &sampler.need);
            if sampler.feasible {
                break;
            }
        }
        sampler
    }

    /// One random deal.
    pub fn sample<R: Rng>(&self, rng: &mut R) -> [CardSet; 4] {
        let mut deal = [CardSet::EMPTY; 4];
        deal[self.me] = self.own;
        // At most three other seats: the needs are copied onto the stack.
        let mut buf = [0u32; 4];
        let need = &mut buf[..self.need.len()];
        need.copy_from_slice(&self.need);
        let mut left = self.unseen;
        if !self.feasible {
            // Inconsistent sizes (a spectator's view): fill what fits.
            for c in left.iter() {
                if let Some(i) = (0..need.len()).find(|&i| need[i] > 0) {
                    need[i] -= 1;
                    deal[self.others[i]].insert(c);
                }
            }
            return deal;
        }
        while !left.is_empty() {
            let c = random_card(left, rng).unwrap_or_default();
            left.remove(c);
            let i = self.pick_seat(c, left, need, rng);
            deal[self.others[i]].insert(c);
        }
        deal
    }

    /// Chooses the seat for `c` (already taken out of `left`) and takes one
    /// from its need, keeping the rest of the deal possible.
    fn pick_seat<R: Rng>(&self, c: Card, left: CardSet, need: &mut [u32], rng: &mut R) -> usize {
        let mut candidates: u32 = 0;
        for (i, &a) in self.allowed.iter().enumerate() {
            if need[i] > 0 && a >> c.index() & 1 == 1 {
                candidates |= 1 << i;
            }
        }
        let mut fallback = candidates.trailing_zeros() as usize;
        while candidates != 0 {
            let total: u32 = bits(candidates).map(|i| need[i]).sum();
            let mut r = below(rng, total);
            let mut chosen = fallback;
            for i in bits(candidates) {
                if r < need[i] {
                    chosen = i;
                    break;
                }
                r -= need[i];
            }
            need[chosen] -= 1;
            if feasible(left.0, &self.allowed, need) {
                return chosen;
            }
            need[chosen] += 1;
            candidates &= !(1 << chosen);
            fallback = chosen;
        }
        // Unreachable while the deal was feasible before this card.
        need[fallback] = need[fallback].saturating_sub(1);
        fallback
    }
}

/// Whether `cards` can be dealt so that seat `i` gets exactly `need[i]` of
/// them, all from `allowed[i]`: the counts add up and, for every group of
/// seats, the cards some seat of the group may hold are at least the group's
/// need (Hall's condition).
fn feasible(cards: u64, allowed: &[u64], need: &[u32]) -> bool {
    if cards.count_ones() != need.iter().sum::<u32>() {
        return false;
    }
    (1u32..1 << allowed.len()).all(|group| {
        let (union, total) =
            bits(group).fold((0u64, 0u32), |(u, t), i| (u | allowed[i], t + need[i]));
        (union & cards).count_ones() >= total
    })
}

/// The indices of the set bits of `mask`.
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (i < 32).then_some(i)
    })
}
