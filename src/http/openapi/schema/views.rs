//! The OpenAPI schemas of the engine's views: what a seat sees of a match
//! and of its record. Described as [`super::types`] describes the engine's
//! other structured types (same names, fields, documentation and serde
//! attributes; conversions naming every field; a test that both serialize
//! alike).

use serde::Serialize;
use utoipa::ToSchema;

use crate::rules::{Card, Seat, Trump, TrumpChoice, Winner};

/// The engine types described here.
mod engine {
    pub use crate::rules::view::{
        ChoiceView, GameView, HandRecordView, HistoryView, PlayedCard, TrickView,
    };
    pub use crate::rules::{Action, CallRecord, HandResult, Phase, Rules};
}

/// A card and who played it.
#[derive(Serialize, ToSchema)]
pub struct PlayedCard {
    /// The seat that played it.
    #[schema(value_type = super::SeatNumber)]
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// A trick as shown: who led, the cards in order, and the winner once complete.
#[derive(Serialize, ToSchema)]
pub struct TrickView {
    /// The seat that led.
    #[schema(value_type = super::SeatNumber)]
    pub leader: Seat,
    /// The cards played, in order.
    pub cards: Vec<engine::PlayedCard>,
    /// Who won it (null while it is being played).
    #[schema(value_type = Option<super::SeatNumber>)]
    pub winner: Option<Seat>,
}

/// A trump-phase action as shown.
#[derive(Serialize, ToSchema)]
pub struct ChoiceView {
    /// Who spoke.
    #[schema(value_type = super::SeatNumber)]
    pub seat: Seat,
    /// `O`, `C`, `E`, `B`, `botifarra`, `delegate` or `estevet`.
    pub choice: TrumpChoice,
}

/// The game part of a seat's view (the service adds match id, version,
/// seats and clocks).
#[derive(Serialize, ToSchema)]
pub struct GameView {
    /// The options of the match.
    pub rules: engine::Rules,
    /// The viewer's seat, or null for a spectator.
    #[schema(value_type = Option<super::SeatNumber>)]
    pub you: Option<Seat>,
    /// The current phase.
    pub phase: engine::Phase,
    /// The hand in progress, or the last one played (0 before the first deal).
    pub hand_number: u32,
    /// The dealer of that hand (of the next hand in `awaiting_deal`).
    #[schema(value_type = super::SeatNumber)]
    pub dealer: Seat,
    /// The card turned to draw the first dealer, if drawn.
    pub first_dealer_card: Option<Card>,
    /// Who named trump in that hand.
    #[schema(value_type = Option<super::SeatNumber>)]
    pub declarer: Option<Seat>,
    /// The trump of that hand.
    pub trump: Option<Trump>,
    /// Trump-phase actions of that hand (delegations and the declaration).
    pub choices: Vec<engine::ChoiceView>,
    /// The doubles said in that hand, in order.
    pub calls: Vec<engine::CallRecord>,
    /// The multiplier in force.
    pub multiplier: u32,
    /// The seat to act, or null when the match is over.
    #[schema(value_type = Option<super::SeatNumber>)]
    pub turn: Option<Seat>,
    /// The viewer's own cards (absent for spectators).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// The trick being played.
    pub trick: Option<engine::TrickView>,
    /// The last completed trick.
    pub last_trick: Option<engine::TrickView>,
    /// Every completed trick of the hand, in order (all were seen face up).
    pub tricks: Vec<engine::TrickView>,
    /// Tricks won per side in that hand.
    pub tricks_won: Vec<u8>,
    /// Hand points taken per side in that hand.
    pub points_taken: Vec<u8>,
    /// Match totals per side (a team in pairs, a seat in abarrotada).
    pub scores: Vec<i32>,
    /// One result per finished hand.
    pub hands: Vec<engine::HandResult>,
    /// The winning side, `"draw"`, or null while the match goes on (and
    /// after an abort).
    pub winner: Option<Winner>,
    /// Who ended the match early, and how (docs/api.md, "Ending a match
    /// early"); null otherwise.
    pub ended_by: Option<super::events::EndedByShown>,
    /// The exact actions the viewer may post now.
    pub legal_actions: Vec<engine::Action>,
    /// `SHA-256(seed)`, hex: the commitment to the deals.
    pub seed_sha256: String,
    /// The seed, hex, once the match is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

/// One hand of the record.
#[derive(Serialize, ToSchema)]
pub struct HandRecordView {
    /// 1 for the first hand.
    pub hand_number: u32,
    /// Who dealt.
    #[schema(value_type = super::SeatNumber)]
    pub dealer: Seat,
    /// Each seat's dealt cards; null where still hidden from the viewer.
    pub dealt: Vec<Option<Vec<Card>>>,
    /// Trump-phase actions in order.
    pub choices: Vec<engine::ChoiceView>,
    /// Every doubling call in order, passes included.
    pub calls: Vec<engine::CallRecord>,
    /// The tricks in order (the last one may be incomplete).
    pub tricks: Vec<engine::TrickView>,
    /// The result, once the hand is over.
    pub result: Option<engine::HandResult>,
}

/// The complete record of a match as a viewer may see it.
#[derive(Serialize, ToSchema)]
pub struct HistoryView {
    /// The options of the match.
    pub rules: engine::Rules,
    /// The card turned to draw the first dealer, if drawn.
    pub first_dealer_card: Option<Card>,
    /// `SHA-256(seed)`, hex.
    pub seed_sha256: String,
    /// The seed, hex, once the match is over: with it every deal can be
    /// recomputed and checked against the commitment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// Every hand dealt, in order.
    pub hands: Vec<engine::HandRecordView>,
    /// Match totals per side.
    pub scores: Vec<i32>,
    /// The winner, once the match is over.
    pub winner: Option<Winner>,
}

impl From<engine::PlayedCard> for PlayedCard {
    fn from(v: engine::PlayedCard) -> PlayedCard {
        let engine::PlayedCard { seat, card } = v;
        PlayedCard { seat, card }
    }
}

impl From<engine::TrickView> for TrickView {
    fn from(v: engine::TrickView) -> TrickView {
        let engine::TrickView {
            leader,
            cards,
            winner,
        } = v;
        TrickView {
            leader,
            cards,
            winner,
        }
    }
}

impl From<engine::ChoiceView> for ChoiceView {
    fn from(v: engine::ChoiceView) -> ChoiceView {
        let engine::ChoiceView { seat, choice } = v;
        ChoiceView { seat, choice }
    }
}

impl From<engine::GameView> for GameView {
    fn from(v: engine::GameView) -> GameView {
        let engine::GameView {
            rules,
            you,
            phase,
            hand_number,
            dealer,
            first_dealer_card,
            declarer,
            trump,
            choices,
            calls,
            multiplier,
            turn,
            hand,
            hand_sizes,
            trick,
            last_trick,
            tricks,
            tricks_won,
            points_taken,
            scores,
            hands,
            winner,
            ended_by,
            legal_actions,
            seed_sha256,
            seed,
        } = v;
        GameView {
            rules,
            you,
            phase,
            hand_number,
            dealer,
            first_dealer_card,
            declarer,
            trump,
            choices,
            calls,
            multiplier,
            turn,
            hand,
            hand_sizes,
            trick,
            last_trick,
            tricks,
            tricks_won,
            points_taken,
            scores,
            hands,
            winner,
            ended_by: ended_by.map(Into::into),
            legal_actions,
            seed_sha256,
            seed,
        }
    }
}

impl From<engine::HandRecordView> for HandRecordView {
    fn from(v: engine::HandRecordView) -> HandRecordView {
        let engine::HandRecordView {
            hand_number,
            dealer,
            dealt,
            choices,
            calls,
            tricks,
            result,
        } = v;
        HandRecordView {
            hand_number,
            dealer,
            dealt,
            choices,
            calls,
            tricks,
            result,
        }
    }
}

impl From<engine::HistoryView> for HistoryView {
    fn from(v: engine::HistoryView) -> HistoryView {
        let engine::HistoryView {
            rules,
            first_dealer_card,
            seed_sha256,
            seed,
            hands,
            scores,
            winner,
        } = v;
        HistoryView {
            rules,
            first_dealer_card,
            seed_sha256,
            seed,
            hands,
            scores,
            winner,
        }
    }
}

super::lend!(
    PlayedCard,
    TrickView,
    ChoiceView,
    GameView,
    HandRecordView,
    HistoryView
);

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;
    use serde::Serialize;
    use serde_json::to_value;

    use super::super::actions::Action;
    use super::super::types::{
        Call, CallRecord, Doubling, HandResult, Phase, Rules, ShuffleMode, Variant,
    };
    use super::*;
    use crate::rules::Match;
    use crate::rules::random::step_random;
    use crate::rules::{Rules as EngineRules, Variant as EngineVariant};

    /// The type described and the description serialize alike.
    fn same<E: Serialize + Clone, M: Serialize + From<E>>(e: &E) {
        assert_eq!(to_value(M::from(e.clone())).unwrap(), to_value(e).unwrap());
    }

    #[test]
    fn every_described_type_serializes_as_the_engine_type() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut events = Vec::new();
        for (n, variant) in [EngineVariant::Pairs, EngineVariant::Abarrotada3]
            .into_iter()
            .enumerate()
        {
            let rules = EngineRules {
                variant,
                max_hands: Some(2),
                ..EngineRules::default()
            };
            let mut m = Match::new(rules, [n as u8; 32]).unwrap();
            while let Some(seat) = m.turn() {
                let view = m.view(Some(seat));
                same::<_, GameView>(&view);
                same::<_, Rules>(&view.rules);
                same::<_, Variant>(&view.rules.variant);
                same::<_, Doubling>(&view.rules.doubling);
                same::<_, ShuffleMode>(&view.rules.shuffle);
                same::<_, Phase>(&view.phase);
                view.legal_actions.iter().for_each(same::<_, Action>);
                view.calls.iter().for_each(same::<_, CallRecord>);
                view.calls
                    .iter()
                    .map(|c| c.call)
                    .for_each(|c| same::<_, Call>(&c));
                view.choices.iter().for_each(same::<_, ChoiceView>);
                view.hands.iter().for_each(same::<_, HandResult>);
                for t in view.tricks.iter().chain(&view.trick) {
                    same::<_, TrickView>(t);
                    t.cards.iter().for_each(same::<_, PlayedCard>);
                }
                let history = m.history_view(Some(seat));
                same::<_, HistoryView>(&history);
                history.hands.iter().for_each(same::<_, HandRecordView>);
                step_random(&mut m, &mut rng, &mut events);
                events.clear();
            }
            same::<_, HistoryView>(&m.history_view(None));
        }
    }
}
