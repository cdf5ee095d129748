//! What one seat (or a spectator) may know of a match, and nothing more.
//!
//! Hidden information is another seat's cards still held and, before the
//! match is over, the seed. Every output type here is built from a
//! [`Match`] for a viewer; none of them carries a hidden card.

use serde::{Deserialize, Serialize};

use super::action::{Action, EndedBy};
use super::card::{Card, CardSet};
use super::contract::{CallRecord, Trump};
use super::deck::seed_commitment;
use super::event::Event;
use super::game::Match;
use super::hand::{ChoiceRecord, HandState, Stage};
use super::outcome::{HandResult, Winner};
use super::phase::Phase;
use super::scoring::doubles_said;
use super::seat::{Seat, Table};
use super::trick::Trick;
use super::variant::Rules;

/// A card and who played it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct PlayedCard {
    /// The seat that played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// A trick as shown: who led, the cards in order, and the winner once complete.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TrickView {
    /// The seat that led.
    pub leader: Seat,
    /// The cards played, in order.
    pub cards: Vec<PlayedCard>,
    /// Who won it (null while it is being played).
    pub winner: Option<Seat>,
}

impl TrickView {
    fn of(t: &Trick, table: Table, complete: bool) -> TrickView {
        let cards = t
            .seats(table)
            .zip(t.cards())
            .map(|(seat, &card)| PlayedCard { seat, card })
            .collect();
        let winner = if complete {
            t.winning(table).map(|(s, _)| s)
        } else {
            None
        };
        TrickView {
            leader: t.leader,
            cards,
            winner,
        }
    }
}

/// A trump-phase action as shown.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct ChoiceView {
    /// Who spoke.
    pub seat: Seat,
    /// `O`, `C`, `E`, `B`, `botifarra`, `delegate` or `estevet`.
    pub choice: super::contract::TrumpChoice,
}

impl From<&ChoiceRecord> for ChoiceView {
    fn from(c: &ChoiceRecord) -> ChoiceView {
        ChoiceView {
            seat: c.seat,
            choice: c.choice,
        }
    }
}

/// The game part of a seat's view (the service adds match id, version,
/// seats and clocks).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameView {
    /// The options of the match.
    pub rules: Rules,
    /// The viewer's seat, or null for a spectator.
    pub you: Option<Seat>,
    /// The current phase.
    pub phase: Phase,
    /// The hand in progress, or the last one played (0 before the first deal).
    pub hand_number: u32,
    /// The dealer of that hand (of the next hand in `awaiting_deal`).
    pub dealer: Seat,
    /// The card turned to draw the first dealer, if drawn.
    pub first_dealer_card: Option<Card>,
    /// Who named trump in that hand.
    pub declarer: Option<Seat>,
    /// The trump of that hand.
    pub trump: Option<Trump>,
    /// Trump-phase actions of that hand (delegations and the declaration).
    pub choices: Vec<ChoiceView>,
    /// The doubles said in that hand, in order.
    pub calls: Vec<CallRecord>,
    /// The multiplier in force.
    pub multiplier: u32,
    /// The seat to act, or null when the match is over.
    pub turn: Option<Seat>,
    /// The viewer's own cards (absent for spectators).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// The trick being played.
    pub trick: Option<TrickView>,
    /// The last completed trick.
    pub last_trick: Option<TrickView>,
    /// Every completed trick of the hand, in order (all were seen face up).
    pub tricks: Vec<TrickView>,
    /// Tricks won per side in that hand.
    pub tricks_won: Vec<u8>,
    /// Hand points taken per side in that hand.
    pub points_taken: Vec<u8>,
    /// Match totals per side (a team in pairs, a seat in abarrotada).
    pub scores: Vec<i32>,
    /// One result per finished hand.
    pub hands: Vec<HandResult>,
    /// The winning side, `"draw"`, or null while the match goes on (and
    /// after an abort).
    pub winner: Option<Winner>,
    /// Who ended the match early, and how; null otherwise.
    pub ended_by: Option<EndedBy>,
    /// The exact actions the viewer may post now.
    pub legal_actions: Vec<Action>,
    /// `SHA-256(seed)`, hex: the commitment to the deals.
    pub seed_sha256: String,
    /// The seed, hex, once the match is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

impl Match {
    /// The hand shown in views: the one in progress, else the last finished.
    pub fn shown_hand(&self) -> Option<&HandState> {
        self.hand.as_ref().or(self.history.last())
    }

    /// The seed in hex, once the match is over.
    pub fn revealed_seed(&self) -> Option<String> {
        (self.phase() == Phase::MatchOver).then(|| hex::encode(self.seed))
    }

    /// What `viewer` (a seat, or `None` for a spectator) may know.
    pub fn view(&self, viewer: Option<Seat>) -> GameView {
        let table = self.table();
        let sides = table.sides() as usize;
        let seats = table.seats as usize;
        let h = self.shown_hand();
        let in_progress = self.hand.is_some();
        let trump = h.and_then(|h| h.trump);
        let trick = h
            .filter(|h| in_progress && h.stage == Stage::Playing)
            .map(|h| TrickView::of(&h.trick, table, false));
        let tricks: Vec<TrickView> = h.map_or(Vec::new(), |h| {
            h.tricks
                .iter()
                .map(|t| TrickView::of(t, table, true))
                .collect()
        });
        GameView {
            rules: self.rules.clone(),
            you: viewer,
            phase: self.phase(),
            hand_number: h.map_or(0, |h| h.number),
            dealer: h.filter(|_| in_progress).map_or(self.dealer, |h| h.dealer),
            first_dealer_card: self.first_dealer_card,
            declarer: h.and_then(|h| h.declarer),
            trump,
            choices: h.map_or(Vec::new(), |h| {
                h.choices.iter().map(ChoiceView::from).collect()
            }),
            calls: h.map_or(Vec::new(), doubles_said),
            multiplier: h.map_or(1, |h| h.multiplier(&self.rules)),
            turn: self.turn(),
            hand: viewer.map(|s| {
                self.hand
                    .as_ref()
                    .map_or(Vec::new(), |h| h.hands[s as usize].iter().collect())
            }),
            hand_sizes: (0..seats)
                .map(|s| self.hand.as_ref().map_or(0, |h| h.hands[s].len() as u8))
                .collect(),
            trick,
            last_trick: tricks.last().cloned(),
            tricks,
            tricks_won: h.map_or(vec![0; sides], |h| h.tricks_won[..sides].to_vec()),
            points_taken: h.map_or(vec![0; sides], |h| h.points[..sides].to_vec()),
            scores: self.scores[..sides].to_vec(),
            hands: self.results.clone(),
            winner: self.winner,
            ended_by: self.ended_by,
            legal_actions: viewer.map_or(Vec::new(), |s| self.legal_actions(s)),
            seed_sha256: seed_commitment(&self.seed),
            seed: self.revealed_seed(),
        }
    }

    /// The full record as `viewer` may see it: every finished hand complete,
    /// the hand in progress with only the viewer's own deal.
    pub fn history_view(&self, viewer: Option<Seat>) -> HistoryView {
        let table = self.table();
        let finished = self.history.iter().zip(self.results.iter().map(Some));
        let current = self.hand.iter().map(|h| (h, None));
        let hands = finished
            .chain(current)
            .map(|(h, result)| {
                let over = result.is_some();
                let dealt = (0..table.seats)
                    .map(|s| {
                        (over || viewer == Some(s)).then(|| h.dealt[s as usize].iter().collect())
                    })
                    .collect();
                let mut tricks: Vec<TrickView> = h
                    .tricks
                    .iter()
                    .map(|t| TrickView::of(t, table, true))
                    .collect();
                if let Some(t) = h.trick_on_table() {
                    tricks.push(TrickView::of(t, table, false));
                }
                HandRecordView {
                    hand_number: h.number,
                    dealer: h.dealer,
                    dealt,
                    choices: h.choices.iter().map(ChoiceView::from).collect(),
                    calls: h.calls.clone(),
                    tricks,
                    result: result.cloned(),
                }
            })
            .collect();
        HistoryView {
            rules: self.rules.clone(),
            first_dealer_card: self.first_dealer_card,
            seed_sha256: seed_commitment(&self.seed),
            seed: self.revealed_seed(),
            hands,
            scores: self.scores[..table.sides() as usize].to_vec(),
            winner: self.winner,
        }
    }
}

/// One hand of the record.
#[derive(Clone, Debug, Serialize)]
pub struct HandRecordView {
    /// 1 for the first hand.
    pub hand_number: u32,
    /// Who dealt.
    pub dealer: Seat,
    /// Each seat's dealt cards; null where still hidden from the viewer.
    pub dealt: Vec<Option<Vec<Card>>>,
    /// Trump-phase actions in order.
    pub choices: Vec<ChoiceView>,
    /// Every doubling call in order, passes included.
    pub calls: Vec<CallRecord>,
    /// The tricks in order (the last one may be incomplete).
    pub tricks: Vec<TrickView>,
    /// The result, once the hand is over.
    pub result: Option<HandResult>,
}

/// The complete record of a match as a viewer may see it.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryView {
    /// The options of the match.
    pub rules: Rules,
    /// The card turned to draw the first dealer, if drawn.
    pub first_dealer_card: Option<Card>,
    /// `SHA-256(seed)`, hex.
    pub seed_sha256: String,
    /// The seed, hex, once the match is over: with it every deal can be
    /// recomputed and checked against the commitment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// Every hand dealt, in order.
    pub hands: Vec<HandRecordView>,
    /// Match totals per side.
    pub scores: Vec<i32>,
    /// The winner, once the match is over.
    pub winner: Option<Winner>,
}

/// An event as a viewer may see it; built only by [`redact_event`], so it
/// never carries another seat's cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ShownEvent(Shown);

/// The two shapes of a [`ShownEvent`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
enum Shown {
    /// A deal, with only the viewer's own cards.
    Dealt(DealtView),
    /// Any other event: public as it is.
    Public(Event),
}

/// A `hand_dealt` event as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename = "hand_dealt")]
struct DealtView {
    hand_number: u32,
    dealer: Seat,
    /// The viewer's own cards (absent for a spectator).
    #[serde(skip_serializing_if = "Option::is_none")]
    cards: Option<Vec<Card>>,
}

/// An event as `viewer` may see it: a `hand_dealt` event carries only the
/// viewer's own cards (none for a spectator); every other event is public.
pub fn redact_event(e: &Event, viewer: Option<Seat>) -> ShownEvent {
    ShownEvent(match e {
        Event::HandDealt {
            hand_number,
            dealer,
            hands,
        } => Shown::Dealt(DealtView {
            hand_number: *hand_number,
            dealer: *dealer,
            cards: viewer.map(|s| {
                hands
                    .get(s as usize)
                    .copied()
                    .unwrap_or(CardSet::EMPTY)
                    .iter()
                    .collect()
            }),
        }),
        other => Shown::Public(other.clone()),
    })
}
