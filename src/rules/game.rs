//! A match (partida): a series of hands until a side reaches the target.
//!
//! [`Match`] deals each hand, hands the seat's [`Action`] to the
//! [`HandState`] in progress, scores the hand when it ends and stops at the
//! target or the hand limit. The actions, the events it reports and the
//! results it keeps live in `action.rs`, `event.rs` and `outcome.rs`, shared
//! with the hand and the view; `Action`, `Move` and `Event` stay reachable
//! here too.

use serde::{Deserialize, Serialize};

use super::card::Card;
use super::deck::{self, HandRng, Seed};
use super::hand::{HandState, Stage};
use super::outcome::{HandResult, Winner};
use super::phase::Phase;
use super::refusal::RuleError;
use super::scoring::{score_forfeit, score_hand, winner_of};
use super::seat::{Seat, Table};
use super::variant::{FirstDealer, Rules, RulesError, ShuffleMode};

pub use super::action::{Action, EndedBy, Ending, Move};
pub use super::event::Event;

/// The whole state of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// The options chosen at creation.
    pub rules: Rules,
    /// The 256-bit seed every deal derives from.
    #[serde(with = "hex_seed")]
    pub seed: Seed,
    /// The dealer of the hand in progress, or of the next hand.
    pub dealer: Seat,
    /// The card turned to draw the first dealer, if drawn.
    pub first_dealer_card: Option<Card>,
    /// Hands dealt so far.
    pub hands_dealt: u32,
    /// The hand in progress.
    pub hand: Option<HandState>,
    /// Every finished hand, complete (deal, calls, tricks).
    pub history: Vec<HandState>,
    /// The result of every finished hand.
    pub results: Vec<HandResult>,
    /// Match totals per side.
    pub scores: [i32; 4],
    /// Set when the match is over (and not aborted).
    pub winner: Option<Winner>,
    /// Set when a seat ended the match before its target (`ending.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_by: Option<EndedBy>,
}

impl Match {
    /// A new match in phase `awaiting_deal`, the first dealer drawn or given.
    ///
    /// # Errors
    /// [`RulesError`] when the options cannot be played together.
    pub fn new(rules: Rules, seed: Seed) -> Result<Match, RulesError> {
        rules.validate()?;
        let table = rules.variant.table();
        let (dealer, first_dealer_card) = match rules.first_dealer {
            FirstDealer::Seat(s) => (s, None),
            FirstDealer::Draw => {
                let (s, c) = deck::draw_first_dealer(&seed, rules.variant.deck(), table);
                (s, Some(c))
            }
        };
        Ok(Match {
            rules,
            seed,
            dealer,
            first_dealer_card,
            hands_dealt: 0,
            hand: None,
            history: Vec::new(),
            results: Vec::new(),
            scores: [0; 4],
            winner: None,
            ended_by: None,
        })
    }

    /// The seating of this variant.
    #[inline]
    pub fn table(&self) -> Table {
        self.rules.variant.table()
    }

    /// The current phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        if self.winner.is_some() || self.ended_by.is_some() {
            return Phase::MatchOver;
        }
        match self.hand.as_ref().map(|h| h.stage) {
            None | Some(Stage::Over) => Phase::AwaitingDeal,
            Some(Stage::ChoosingTrump) => Phase::ChoosingTrump,
            Some(Stage::Doubling) => Phase::Doubling,
            Some(Stage::Playing) => Phase::Playing,
        }
    }

    /// The seat to act, or `None` when the match is over.
    #[inline]
    pub fn turn(&self) -> Option<Seat> {
        self.turn_in(self.phase())
    }

    /// The seat to act when the match is in `phase` (its current phase).
    #[inline]
    fn turn_in(&self, phase: Phase) -> Option<Seat> {
        match (phase, &self.hand) {
            (Phase::MatchOver, _) => None,
            (Phase::AwaitingDeal, _) | (_, None) => Some(self.dealer),
            (_, Some(h)) => Some(h.turn),
        }
    }

    /// The actions `seat` may make now (empty when it is not its turn).
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let phase = self.phase();
        if self.turn_in(phase) != Some(seat) {
            return Vec::new();
        }
        let table = self.table();
        match (phase, &self.hand) {
            (Phase::AwaitingDeal, _) => vec![Action::Deal],
            (Phase::ChoosingTrump, Some(h)) => h
                .trump_choices(table)
                .map(|choice| Action::Trump { choice })
                .collect(),
            (Phase::Doubling, Some(h)) => h
                .double_calls()
                .into_iter()
                .map(|call| Action::Double { call })
                .collect(),
            (Phase::Playing, Some(h)) => h
                .legal_cards(&self.rules, table)
                .iter()
                .map(|card| Action::Play { card })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Applies `action` for `seat`, appending what happened to `events`.
    ///
    /// # Errors
    /// [`RuleError`] when the action is refused; the match is then unchanged
    /// and nothing is appended.
    #[inline]
    pub fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        // The hot path of every simulation: a card from the seat to play.
        // It makes the same checks as the general path, in fewer steps.
        if let Action::Play { card } = action
            && self.winner.is_none()
            && let Some(h) = self.hand.as_mut()
            && h.stage == Stage::Playing
            && h.turn == seat
        {
            let table = self.rules.variant.table();
            h.play(&self.rules, table, card, events)?;
            if h.stage == Stage::Over {
                self.finish_hand(events);
            }
            return Ok(());
        }
        self.apply_any(seat, action, events)
    }

    /// [`Match::apply`] for every action.
    #[inline(never)]
    fn apply_any(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let phase = self.phase();
        if phase != action.phase() {
            return Err(RuleError::WrongPhase {
                phase,
                expected: action.phase(),
            });
        }
        let turn = self.turn_in(phase);
        if turn != Some(seat) {
            return Err(RuleError::NotYourTurn { turn });
        }
        let table = self.table();
        let rules = &self.rules;
        match (action, self.hand.as_mut()) {
            (Action::Deal, _) => {
                self.deal(events);
                return Ok(());
            }
            (Action::Trump { choice }, Some(h)) => h.choose(rules, table, choice, events)?,
            (Action::Double { call }, Some(h)) => h.double(rules, table, call, events)?,
            (Action::Play { card }, Some(h)) => h.play(rules, table, card, events)?,
            // Every phase but `awaiting_deal` has a hand in progress.
            _ => {
                return Err(RuleError::WrongPhase {
                    phase: Phase::AwaitingDeal,
                    expected: action.phase(),
                });
            }
        }
        if self.hand.as_ref().is_some_and(|h| h.stage == Stage::Over) {
            self.finish_hand(events);
        }
        Ok(())
    }

    /// `seat`'s side forfeits the hand in progress (docs/rules.md section 5).
    ///
    /// # Errors
    /// [`RuleError::WrongPhase`] when no hand is in progress.
    pub fn resign(&mut self, seat: Seat, events: &mut Vec<Event>) -> Result<(), RuleError> {
        let phase = self.phase();
        let Some(h) = self.hand.as_mut().filter(|_| {
            matches!(
                phase,
                Phase::ChoosingTrump | Phase::Doubling | Phase::Playing
            )
        }) else {
            return Err(RuleError::WrongPhase {
                phase,
                expected: Phase::Playing,
            });
        };
        let side = self.rules.variant.table().side(seat);
        h.forfeit = Some(side);
        h.forfeited_by = Some(seat);
        h.stage = Stage::Over;
        events.push(Event::HandForfeited { seat, side });
        self.finish_hand(events);
        Ok(())
    }

    // Kept out of `apply`, whose hot path is playing a card.
    #[inline(never)]
    fn deal(&mut self, events: &mut Vec<Event>) {
        let table = self.table();
        let number = self.hands_dealt + 1;
        let mut rng = HandRng::new(&self.seed, number);
        let stacked = match self.rules.shuffle {
            ShuffleMode::StackAndCut => self.history.last().and_then(|h| stacked_deck(h, table)),
            ShuffleMode::Full => None,
        };
        let dealt = match stacked {
            Some(mut cards) => {
                rng.cut(&mut cards);
                deck::deal(&cards, self.dealer, table)
            }
            None => {
                let (cards, n) = deck::shuffled_array(self.rules.variant.deck(), &mut rng);
                deck::deal(&cards[..n], self.dealer, table)
            }
        };
        self.hands_dealt = number;
        self.hand = Some(HandState::new(number, self.dealer, dealt));
        events.push(Event::HandDealt {
            hand_number: number,
            dealer: self.dealer,
            hands: Box::new(dealt),
        });
    }

    #[inline(never)]
    fn finish_hand(&mut self, events: &mut Vec<Event>) {
        let Some(h) = self.hand.take() else { return };
        let table = self.table();
        let result = match h.forfeit {
            Some(side) => score_forfeit(&self.rules, &h, side),
            None => score_hand(&self.rules, &h),
        };
        for (total, rec) in self.scores.iter_mut().zip(&result.recorded) {
            *total += *rec as i32;
        }
        events.push(Event::HandScored {
            result: Box::new(result.clone()),
        });
        self.results.push(result);
        self.history.push(h);
        self.dealer = table.next(self.dealer);
        let sides = table.sides() as usize;
        let reached = self.scores[..sides]
            .iter()
            .any(|&s| s >= self.rules.target as i32);
        let last = self.rules.max_hands.is_some_and(|m| self.hands_dealt >= m);
        if reached || last {
            let winner = winner_of(&self.scores[..sides]);
            self.winner = Some(winner);
            events.push(Event::MatchOver {
                winner,
                scores: Box::new(self.scores[..sides].to_vec()),
            });
        }
    }

    /// Every move made so far, in order: replaying them on a new match with
    /// the same rules and seed reproduces this one.
    pub fn moves(&self) -> Vec<Move> {
        let table = self.table();
        let mut out = Vec::new();
        for h in self.history.iter().chain(self.hand.as_ref()) {
            out.push(Move::Act(h.dealer, Action::Deal));
            out.extend(
                h.choices
                    .iter()
                    .map(|c| Move::Act(c.seat, Action::Trump { choice: c.choice })),
            );
            out.extend(
                h.calls
                    .iter()
                    .map(|c| Move::Act(c.seat, Action::Double { call: c.call })),
            );
            for t in h.tricks.iter().chain(h.trick_on_table()) {
                for (seat, &card) in t.seats(table).zip(t.cards()) {
                    out.push(Move::Act(seat, Action::Play { card }));
                }
            }
            if let Some(seat) = h.forfeited_by {
                out.push(Move::Resign(seat));
            }
        }
        if let Some(e) = self.ended_by {
            out.push(Move::End(e.seat, e.ending));
        }
        out
    }

    /// Rebuilds a match from its rules, seed and moves.
    ///
    /// # Errors
    /// A message naming the first move that does not apply.
    pub fn replay(rules: Rules, seed: Seed, moves: &[Move]) -> Result<Match, String> {
        let mut m = Match::new(rules, seed).map_err(|e| e.to_string())?;
        let mut events = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            m.perform(*mv, &mut events)
                .map_err(|e| format!("move {i} ({mv:?}): {e}"))?;
            events.clear();
        }
        Ok(m)
    }

    /// Makes one move of the log: [`Match::apply`] or [`Match::resign`].
    ///
    /// # Errors
    /// As theirs; the match is then unchanged.
    pub fn perform(&mut self, mv: Move, events: &mut Vec<Event>) -> Result<(), RuleError> {
        match mv {
            Move::Act(seat, action) => self.apply(seat, action, events),
            Move::Resign(seat) => self.resign(seat, events),
            Move::End(seat, ending) => self.end(seat, ending, events),
        }
    }

    /// The multiplier in force in the hand in progress (1 when none).
    pub fn multiplier(&self) -> u32 {
        self.hand.as_ref().map_or(1, |h| h.multiplier(&self.rules))
    }
}

/// The deck for the next hand under `stack_and_cut`: the previous dealer's
/// side's pile of won tricks on top, then the other sides' piles in playing
/// order; each pile in the order won, each trick in the order played. `None`
/// when the hand did not finish (a forfeit): the next hand is shuffled.
fn stacked_deck(prev: &HandState, table: Table) -> Option<Vec<Card>> {
    if prev.forfeit.is_some() || prev.hands.iter().any(|h| !h.is_empty()) {
        return None;
    }
    let winners: Vec<u8> = prev
        .tricks
        .iter()
        .map(|t| t.winning(table).map_or(0, |(s, _)| table.side(s)))
        .collect();
    let first = table.side(prev.dealer);
    let mut cards = Vec::with_capacity(48);
    for k in 0..table.sides() {
        let side = (first + k) % table.sides();
        for (t, _) in prev
            .tricks
            .iter()
            .zip(&winners)
            .filter(|(_, w)| **w == side)
        {
            cards.extend_from_slice(t.cards());
        }
    }
    Some(cards)
}

mod hex_seed {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(seed: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(seed))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let mut out = [0u8; 32];
        hex::decode_to_slice(s.as_ref(), &mut out).map_err(serde::de::Error::custom)?;
        Ok(out)
    }
}
