//! One hand (mà) as a state machine: choosing trump, doubling, 12 tricks.

use serde::{Deserialize, Serialize};

use super::card::{Card, CardSet, Suit};
use super::contract::{Call, CallRecord, Speakers, Trump, TrumpChoice, doubling_round};
use super::event::Event;
use super::legal::{Narrowing, PlayContext, beating, legal_cards, narrow, why_illegal};
use super::refusal::RuleError;
use super::seat::{Seat, Side, Table};
use super::trick::Trick;
use super::variant::Rules;

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Someone must name trump or hand the choice on.
    ChoosingTrump,
    /// A doubling round is open.
    Doubling,
    /// Tricks are being played.
    Playing,
    /// All tricks played, or a side forfeited.
    Over,
}

/// A trump-phase action said by a seat (for the record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceRecord {
    /// Who spoke.
    pub seat: Seat,
    /// What they said.
    pub choice: TrumpChoice,
}

/// The full state of one hand; when over, also its complete record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandState {
    /// 1 for the first hand of the match.
    pub number: u32,
    /// Who dealt.
    pub dealer: Seat,
    /// The cards each seat was dealt.
    pub dealt: [CardSet; 4],
    /// The cards each seat still holds.
    pub hands: [CardSet; 4],
    /// Where the hand stands.
    pub stage: Stage,
    /// The seat to act (chooser, speaker or player); meaningless when over.
    pub turn: Seat,
    /// Trump-phase actions, in order.
    pub choices: Vec<ChoiceRecord>,
    /// Whether the seat to choose may still hand the choice on.
    pub may_delegate: bool,
    /// Who delegated with an Estevet, if anyone.
    pub estevet_by: Option<Seat>,
    /// The declaration, once made.
    pub trump: Option<Trump>,
    /// Who made it.
    pub declarer: Option<Seat>,
    /// Every doubling call including passes, in order.
    pub calls: Vec<CallRecord>,
    /// Doubles in force (0..=3).
    pub doubles: u8,
    /// Who said each double in force, in order.
    pub doublers: Vec<Seat>,
    /// The open doubling round.
    pub speakers: Speakers,
    /// The trick being played.
    pub trick: Trick,
    /// The completed tricks, in order.
    pub tricks: Vec<Trick>,
    /// Hand points taken per side.
    pub points: [u8; 4],
    /// Tricks won per side.
    pub tricks_won: [u8; 4],
    /// The side that forfeited the hand, if any.
    pub forfeit: Option<Side>,
    /// The seat whose resignation forfeited it.
    pub forfeited_by: Option<Seat>,
}

impl HandState {
    /// A freshly dealt hand: the dealer is to choose trump.
    pub fn new(number: u32, dealer: Seat, dealt: [CardSet; 4]) -> HandState {
        HandState {
            number,
            dealer,
            dealt,
            hands: dealt,
            stage: Stage::ChoosingTrump,
            turn: dealer,
            choices: Vec::with_capacity(2),
            may_delegate: true,
            estevet_by: None,
            trump: None,
            declarer: None,
            // Enough for the longest doubling (3 rounds of 2) in one allocation.
            calls: Vec::with_capacity(6),
            doubles: 0,
            doublers: Vec::new(),
            speakers: Speakers::default(),
            trick: Trick::default(),
            tricks: Vec::with_capacity(12),
            points: [0; 4],
            tricks_won: [0; 4],
            forfeit: None,
            forfeited_by: None,
        }
    }

    /// The cards of the trick being played, if any: while the hand is being
    /// played, and after a forfeit in the middle of a trick (the record
    /// keeps those cards).
    pub fn trick_on_table(&self) -> Option<&Trick> {
        ((self.stage == Stage::Playing || self.forfeit.is_some()) && !self.trick.is_empty())
            .then_some(&self.trick)
    }

    /// The multiplier in force: 2 under botifarra, times the doubling factor.
    pub fn multiplier(&self, rules: &Rules) -> u32 {
        let base = if self.trump == Some(Trump::Botifarra) {
            2
        } else {
            1
        };
        base * rules.doubling.factor(self.doubles)
    }

    /// The trump-phase choices the seat to choose may make now.
    pub fn trump_choices(&self, table: Table) -> impl Iterator<Item = TrumpChoice> {
        let hand_on = self.may_delegate;
        let estevet = hand_on && !table.pairs;
        let declare = super::card::Suit::ALL
            .into_iter()
            .map(Trump::Suit)
            .chain([Trump::Botifarra])
            .map(TrumpChoice::Declare);
        declare
            .chain(hand_on.then_some(TrumpChoice::Delegate))
            .chain(estevet.then_some(TrumpChoice::Estevet))
    }

    /// Applies a trump-phase action by the seat to choose.
    pub(crate) fn choose(
        &mut self,
        rules: &Rules,
        table: Table,
        choice: TrumpChoice,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let seat = self.turn;
        match choice {
            TrumpChoice::Delegate | TrumpChoice::Estevet => {
                if !self.may_delegate {
                    return Err(RuleError::MustNameTrump);
                }
                let estevet = choice == TrumpChoice::Estevet;
                if estevet && table.pairs {
                    return Err(RuleError::EstevetOnlyInAbarrotada);
                }
                let to = if table.pairs {
                    table.after(seat, 2)
                } else {
                    table.prev(seat)
                };
                self.choices.push(ChoiceRecord { seat, choice });
                // A pairs partner, a player handed an Estevet, and the dealer
                // receiving the choice back must all choose.
                self.may_delegate = !(table.pairs || estevet || to == self.dealer);
                if estevet {
                    self.estevet_by = Some(seat);
                    self.doubles = 1;
                    self.doublers.push(seat);
                }
                self.turn = to;
                events.push(Event::Delegated { seat, to, estevet });
            }
            TrumpChoice::Declare(trump) => {
                self.choices.push(ChoiceRecord { seat, choice });
                self.trump = Some(trump);
                self.declarer = Some(seat);
                events.push(Event::TrumpChosen { seat, trump });
                let level = self.doubles + 1;
                self.open_round(rules, table, level);
            }
        }
        Ok(())
    }

    /// Opens the doubling round for `level`, or starts play when none is due.
    fn open_round(&mut self, rules: &Rules, table: Table, level: u8) {
        let declarer = self.declarer.unwrap_or(self.dealer);
        let botifarra = self.trump == Some(Trump::Botifarra);
        match doubling_round(rules, table, level, declarer, &self.doublers, botifarra) {
            Some(sp) => {
                self.speakers = sp;
                self.stage = Stage::Doubling;
                self.turn = sp.current().unwrap_or(declarer);
            }
            None => self.start_play(table),
        }
    }

    fn start_play(&mut self, table: Table) {
        self.stage = Stage::Playing;
        self.turn = table.next(self.dealer);
        self.trick = Trick::led_by(self.turn);
    }

    /// The calls the seat to speak may make now.
    pub fn double_calls(&self) -> [Call; 2] {
        [Call::at_level(self.doubles + 1), Call::Pass]
    }

    /// Applies a doubling call by the seat to speak.
    pub(crate) fn double(
        &mut self,
        rules: &Rules,
        table: Table,
        call: Call,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let seat = self.turn;
        let expected = Call::at_level(self.doubles + 1);
        if call != Call::Pass && call != expected {
            return Err(RuleError::WrongCall { expected });
        }
        self.calls.push(CallRecord { seat, call });
        if call == Call::Pass {
            self.speakers.pass();
            events.push(Event::DoubleCalled {
                seat,
                call,
                multiplier: self.multiplier(rules),
            });
            match self.speakers.current() {
                Some(s) => self.turn = s,
                None => self.start_play(table),
            }
        } else {
            self.doubles += 1;
            self.doublers.push(seat);
            events.push(Event::DoubleCalled {
                seat,
                call,
                multiplier: self.multiplier(rules),
            });
            let level = self.doubles + 1;
            self.open_round(rules, table, level);
        }
        Ok(())
    }

    /// What the play rules see for the seat to play.
    #[inline]
    pub fn play_context(&self, rules: &Rules, table: Table) -> PlayContext {
        let seat = self.turn;
        let trick = self.trick.so_far(table, seat);
        PlayContext {
            hand: self.hands[seat as usize],
            trump: self.trump.and_then(Trump::suit),
            trick,
            seat,
            table,
            forced: rules.forced,
            must_trump: rules.must_trump,
        }
    }

    /// The cards the seat to play may play.
    #[inline(always)]
    pub fn legal_cards(&self, rules: &Rules, table: Table) -> CardSet {
        self.legal_and_beating(rules, table).0
    }

    /// The cards the seat to play may play, and the cards that would take
    /// the lead of the trick (every card when leading it).
    ///
    /// The same set as `legal_cards(&self.play_context(..))`, read straight
    /// from the hand's state: this runs for every card of every simulation.
    #[inline(always)]
    fn legal_and_beating(&self, rules: &Rules, table: Table) -> (CardSet, CardSet) {
        let seat = self.turn;
        let hand = self.hands[seat as usize];
        let Some(t) = self.trick.facing(table, seat) else {
            return (hand, CardSet::FULL);
        };
        let trump = self.trump.and_then(Trump::suit);
        let beat = beating(t.winning, trump);
        let legal = narrow(&Narrowing {
            hand,
            led: t.led,
            beat,
            trump: trump.map_or(CardSet::EMPTY, Suit::mask),
            partner_winning: t.partner_winning,
            partner_played: t.partner_played,
            forced: rules.forced,
            must_trump: rules.must_trump,
        });
        (legal, beat)
    }

    /// Plays a card for the seat to play; closes the trick and the hand when
    /// complete.
    ///
    /// Never inlined: a caller that has just computed the legal set (a bot,
    /// the benchmark) must not see the check below merged into its own
    /// computation, so every card is validated from scratch.
    #[inline(never)]
    pub(crate) fn play(
        &mut self,
        rules: &Rules,
        table: Table,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let (legal, beat) = self.legal_and_beating(rules, table);
        if !legal.contains(card) {
            return Err(refusal(self.play_context(rules, table), card));
        }
        debug_assert_eq!(legal, legal_cards(&self.play_context(rules, table)));
        events.push(Event::CardPlayed {
            seat: self.turn,
            card,
        });
        if self.put(table, card, beat.contains(card)) {
            self.close_trick(table, events);
        }
        Ok(())
    }

    /// Puts `card` (already known to be legal) on the trick for the seat to
    /// play, taking the lead when `takes`; returns whether that completes
    /// the trick, else passes the turn. [`HandState::play`] and the bots'
    /// playouts share it, and [`HandState::score_trick`].
    #[inline]
    pub(crate) fn put(&mut self, table: Table, card: Card, takes: bool) -> bool {
        let seat = self.turn;
        self.hands[seat as usize].remove(card);
        self.trick.push_taking(card, takes);
        if (self.trick.len() as u8) < table.seats {
            self.turn = table.next(seat);
            return false;
        }
        true
    }

    /// Records and scores the complete trick on the table. Kept out of
    /// [`HandState::play`], whose hot path is a card that does not complete
    /// a trick.
    #[inline(never)]
    fn close_trick(&mut self, table: Table, events: &mut Vec<Event>) {
        self.tricks.push(self.trick);
        let (winner, won) = self.score_trick(table);
        events.push(Event::TrickWon {
            seat: winner,
            points: won,
        });
    }

    /// Scores the complete trick on the table and opens the next one, or
    /// ends the hand after the last; returns the winner and the points the
    /// trick carried (its trick point included).
    #[inline(always)]
    pub(crate) fn score_trick(&mut self, table: Table) -> (Seat, u8) {
        let winner = self.trick.winner(table);
        let side = table.side(winner) as usize;
        let won = self.trick.cards().iter().map(|c| c.points()).sum::<u8>() + 1;
        self.points[side] += won;
        self.tricks_won[side] += 1;
        // Every seat has played as many cards as the others: the hand is
        // over when the winner's is empty.
        if self.hands[winner as usize].is_empty() {
            self.stage = Stage::Over;
        } else {
            self.turn = winner;
            self.trick = Trick::led_by(winner);
        }
        (winner, won)
    }
}

/// The error for an illegal card, naming the rule it breaks (off the hot
/// path: only refused moves come here).
#[cold]
#[inline(never)]
fn refusal(ctx: PlayContext, card: Card) -> RuleError {
    // A card outside the legal set breaks one of the staged rules.
    why_illegal(&ctx, card).unwrap_or(RuleError::NotInHand(card))
}
