//! The events as a viewer sees them: one named schema per event type
//! (`HandDealtEvent`, `CardPlayedEvent`, …), each with `type`, `seq`,
//! `version`, `turn` and its own fields, joined in the `Event` union with a
//! `type` discriminator.
//!
//! The service sends events as it redacts them (JSON built from the
//! engine's and its own event types); the types here describe that JSON.
//! [`type_of`] names every variant and field of the engine's event, so a
//! change there fails to compile here, and a test reads every event a
//! played match shows, for every viewer, through these types (unknown
//! fields refused) and checks it serializes back unchanged.

use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use super::SeatNumber;
use super::actions::tag;
use crate::rules::{Card, Seat, Side, Trump, Winner};

/// The engine types described here.
mod engine {
    #[cfg(test)]
    pub use crate::rules::Event;
    pub use crate::rules::{Action, Call, HandResult};
}

/// `Some` of whatever is there, so that a `turn` of `null` and an absent
/// `turn` read back apart.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<Seat>>, D::Error> {
    Option::<Seat>::deserialize(d).map(Some)
}

/// Defines one event type: its `type`, the fields every event has, then
/// its own.
macro_rules! event {
    (
        $(#[$doc:meta])*
        $name:ident, $tag:ident, $value:literal { $($(#[$fdoc:meta])* $field:ident : $ty:ty,)* }
    ) => {
        tag!($tag, $value);

        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[serde(rename = "type")]
            #[schema(inline)]
            kind: $tag,
            /// 1, 2, 3, … per match, never reused: the stream's event id,
            /// and what `?after=` and `Last-Event-ID` take.
            #[schema(minimum = 1)]
            pub seq: u64,
            /// The match version the step that made this event produced
            /// (`0` for `match_created`): the events of one move share it,
            /// and a view at this version has seen them all. Absent only on
            /// events recorded by servers that did not record versions.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(value_type = u64, required = false)]
            pub version: Option<u64>,
            /// The seat to act once that step was played (null when the
            /// match is over): when it is yours, fetch `legal-moves` (or
            /// the view) and act with `expected_version` = `version`.
            /// Absent exactly when `version` is.
            #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<SeatNumber>, required = false)]
            pub turn: Option<Option<Seat>>,
            $($(#[$fdoc])* pub $field: $ty,)*
        }
    };
}

event!(
    /// The match was created (`seq` 1, `version` 0).
    MatchCreatedEvent, MatchCreatedTag, "match_created" {
        /// The first dealer.
        #[schema(value_type = SeatNumber)]
        dealer: Seat,
        /// The card turned to draw the first dealer, if drawn.
        first_dealer_card: Option<Card>,
    }
);
event!(
    /// A hand was dealt. Each seat sees only its own cards.
    HandDealtEvent, HandDealtTag, "hand_dealt" {
        /// 1 for the first hand.
        hand_number: u32,
        /// Who dealt.
        #[schema(value_type = SeatNumber)]
        dealer: Seat,
        /// The viewer's own cards (absent for spectators).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Vec<Card>, required = false)]
        cards: Option<Vec<Card>>,
    }
);
event!(
    /// The trump choice was handed on.
    DelegatedEvent, DelegatedTag, "delegated" {
        /// Who handed it on.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// Who chooses now (the partner in pairs, the next seat in abarrotada).
        #[schema(value_type = SeatNumber)]
        to: Seat,
        /// An Estevet (abarrotada): handed on with a contro.
        estevet: bool,
    }
);
event!(
    /// Trump was named.
    TrumpChosenEvent, TrumpChosenTag, "trump_chosen" {
        /// Who named it (the declarer).
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// The trump suit, or `botifarra`.
        trump: Trump,
    }
);
event!(
    /// A doubling call (a pass included).
    DoubleCalledEvent, DoubleCalledTag, "double_called" {
        /// Who spoke.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// What they said.
        call: engine::Call,
        /// The multiplier in force after it.
        multiplier: u32,
    }
);
event!(
    /// A card was played.
    CardPlayedEvent, CardPlayedTag, "card_played" {
        /// Who played it.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// The card.
        card: Card,
    }
);
event!(
    /// A trick was completed.
    TrickWonEvent, TrickWonTag, "trick_won" {
        /// Who won it (and leads the next).
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// The hand points it carried, its trick point included.
        points: u8,
    }
);
event!(
    /// A side forfeited the hand (a resignation, or a move clock run out
    /// with `on_timeout: forfeit`).
    HandForfeitedEvent, HandForfeitedTag, "hand_forfeited" {
        /// The seat that resigned or ran out of time.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// Its side, which forfeits.
        #[schema(value_type = super::SideNumber)]
        side: Side,
    }
);
event!(
    /// A hand was scored.
    HandScoredEvent, HandScoredTag, "hand_scored" {
        /// The hand's result.
        result: engine::HandResult,
    }
);
event!(
    /// The match ended.
    MatchOverEvent, MatchOverTag, "match_over" {
        /// The winning side, or `"draw"`.
        winner: Winner,
        /// Match totals per side.
        scores: Vec<i32>,
    }
);
event!(
    /// A seat ended the match early: it resigned the match, aborted it,
    /// abandoned it (missed moves on its move clock; the server makes this
    /// move) or claimed victory over an absent opponent. A `match_over`
    /// follows, except after an abort (the match ends with no winner).
    MatchEndedEvent, MatchEndedTag, "match_ended" {
        /// The seat that ended it (for `abandoned`, the absent seat).
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// How.
        ending: EndingShown,
    }
);

/// How a match was ended early. Open to other fields: a view's
/// `ended_by` is this with the seat beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EndingShown {
    /// `resigned` (the seat's side loses), `aborted` (no winner),
    /// `abandoned` (the seat's side loses), `claimed` (the side of
    /// `against` loses).
    pub how: EndingHow,
    /// For `claimed`: the absent seat claimed against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<SeatNumber>, required = false)]
    pub against: Option<Seat>,
}

/// Who ended a match early, and how (a view's `ended_by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EndedByShown {
    /// The seat that ended it (for `abandoned`, the absent seat).
    #[schema(value_type = SeatNumber)]
    pub seat: Seat,
    /// How.
    #[serde(flatten)]
    pub ending: EndingShown,
}

impl From<crate::rules::Ending> for EndingShown {
    fn from(e: crate::rules::Ending) -> EndingShown {
        use crate::rules::Ending;
        let (how, against) = match e {
            Ending::Resigned => (EndingHow::Resigned, None),
            Ending::Aborted => (EndingHow::Aborted, None),
            Ending::Abandoned => (EndingHow::Abandoned, None),
            Ending::Claimed { against } => (EndingHow::Claimed, Some(against)),
        };
        EndingShown { how, against }
    }
}

impl From<crate::rules::EndedBy> for EndedByShown {
    fn from(e: crate::rules::EndedBy) -> EndedByShown {
        EndedByShown {
            seat: e.seat,
            ending: e.ending.into(),
        }
    }
}

/// The ways a match ends early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndingHow {
    /// The seat resigned the match.
    Resigned,
    /// The seat aborted the match before the minimum of play.
    Aborted,
    /// The seat missed too many moves in a row in a rated match.
    Abandoned,
    /// The seat claimed victory over an absent opponent.
    Claimed,
}

event!(
    /// A house bot acted for a seat: a bot seat, or a remote seat whose
    /// move clock ran out. The action's own events follow, with the same
    /// `version`.
    BotActedEvent, BotActedTag, "bot_acted" {
        /// The seat acted for.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// The house bot's name.
        bot: String,
        /// What it did.
        action: engine::Action,
        /// `house` for a bot seat, `timeout` when a move clock ran out.
        reason: BotReason,
    }
);

/// Why a house bot acted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BotReason {
    /// The seat is a bot seat.
    House,
    /// The seat's move clock ran out.
    Timeout,
}

/// One event as a viewer sees it; `type` says which.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
#[schema(discriminator(property_name = "type", mapping(
    ("match_created" = "#/components/schemas/MatchCreatedEvent"),
    ("hand_dealt" = "#/components/schemas/HandDealtEvent"),
    ("delegated" = "#/components/schemas/DelegatedEvent"),
    ("trump_chosen" = "#/components/schemas/TrumpChosenEvent"),
    ("double_called" = "#/components/schemas/DoubleCalledEvent"),
    ("card_played" = "#/components/schemas/CardPlayedEvent"),
    ("trick_won" = "#/components/schemas/TrickWonEvent"),
    ("hand_forfeited" = "#/components/schemas/HandForfeitedEvent"),
    ("hand_scored" = "#/components/schemas/HandScoredEvent"),
    ("match_over" = "#/components/schemas/MatchOverEvent"),
    ("match_ended" = "#/components/schemas/MatchEndedEvent"),
    ("bot_acted" = "#/components/schemas/BotActedEvent"),
)))]
pub enum Event {
    /// `match_created`.
    MatchCreated(MatchCreatedEvent),
    /// `hand_dealt`.
    HandDealt(HandDealtEvent),
    /// `delegated`.
    Delegated(DelegatedEvent),
    /// `trump_chosen`.
    TrumpChosen(TrumpChosenEvent),
    /// `double_called`.
    DoubleCalled(DoubleCalledEvent),
    /// `card_played`.
    CardPlayed(CardPlayedEvent),
    /// `trick_won`.
    TrickWon(TrickWonEvent),
    /// `hand_forfeited`.
    HandForfeited(HandForfeitedEvent),
    /// `hand_scored`.
    HandScored(HandScoredEvent),
    /// `match_over`.
    MatchOver(MatchOverEvent),
    /// `match_ended`.
    MatchEnded(MatchEndedEvent),
    /// `bot_acted`.
    BotActed(BotActedEvent),
}

/// The `type` of an engine event, naming every variant and field: a
/// field added to the engine's events fails to compile here (the tests
/// build it), to be described above.
#[cfg(test)]
fn type_of(e: &engine::Event) -> &'static str {
    match e {
        engine::Event::HandDealt {
            hand_number: _,
            dealer: _,
            hands: _,
        } => "hand_dealt",
        engine::Event::Delegated {
            seat: _,
            to: _,
            estevet: _,
        } => "delegated",
        engine::Event::TrumpChosen { seat: _, trump: _ } => "trump_chosen",
        engine::Event::DoubleCalled {
            seat: _,
            call: _,
            multiplier: _,
        } => "double_called",
        engine::Event::CardPlayed { seat: _, card: _ } => "card_played",
        engine::Event::TrickWon { seat: _, points: _ } => "trick_won",
        engine::Event::HandForfeited { seat: _, side: _ } => "hand_forfeited",
        engine::Event::HandScored { result: _ } => "hand_scored",
        engine::Event::MatchOver {
            winner: _,
            scores: _,
        } => "match_over",
        engine::Event::MatchEnded { seat: _, ending: _ } => "match_ended",
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::*;
    use crate::http::matches::wire::{CreateMatch, EventsPage};
    use crate::rules::Ending;
    use crate::service::{Act, ActRequest, Limits, Service};
    use crate::store::MemoryStore;

    async fn create(svc: &Service, body: Value) -> (String, Vec<String>) {
        let req: CreateMatch = serde_json::from_value(body).unwrap();
        let c = svc.create(req.into()).await.unwrap();
        (c.match_id, c.tokens.into_iter().map(|t| t.token).collect())
    }

    /// Every event of match `id` as `token`'s seat (or a spectator) sees
    /// it, as the API sends it.
    async fn shown(svc: &Service, id: &str, token: Option<&str>) -> Vec<Value> {
        let page = svc.events(id, token, 0, 0, 1000).await.unwrap();
        let page = serde_json::to_value(EventsPage::from(page)).unwrap();
        page["events"].as_array().unwrap().clone()
    }

    #[tokio::test]
    async fn every_event_a_match_shows_reads_back_through_the_named_schemas() {
        let svc = Arc::new(Service::new(Arc::new(MemoryStore::new()), Limits::default()).unwrap());
        crate::service::spawn_scheduler(&svc, crate::service::SchedulerOptions::default());
        let over = |id: String| {
            let svc = Arc::clone(&svc);
            async move {
                while svc.view(&id, None).await.unwrap().game.turn.is_some() {
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                }
            }
        };
        let bots = json!({"kind": "bot", "bot": "random"});
        let seed = "09".repeat(32);
        // Four house bots, played to the end by the scheduler.
        let (all_bots, _) = create(
            &svc,
            json!({"rules": {"max_hands": 6}, "seats": [bots, bots, bots, bots], "auto_deal": true, "seed": seed}),
        )
        .await;
        over(all_bots.clone()).await;
        // Abarrotada for three (the Estevet), and a resignation.
        let (three, _) = create(
            &svc,
            json!({"rules": {"variant": "abarrotada3", "max_hands": 6}, "seats": [bots, bots, bots], "auto_deal": true, "seed": seed}),
        )
        .await;
        over(three.clone()).await;
        let (resigned, tokens) = create(
            &svc,
            json!({"rules": {"first_dealer": 0}, "seats": [{"kind": "remote"}, bots, bots, bots], "auto_deal": true, "seed": seed}),
        )
        .await;
        // Seat 0 deals, hands the trump choice on, then resigns.
        let act = |act| ActRequest {
            act,
            seat: None,
            expected_version: None,
            idempotency_key: None,
        };
        let delegate = Act::Action(crate::rules::Action::Trump {
            choice: crate::rules::TrumpChoice::Delegate,
        });
        svc.act(&resigned, Some(&tokens[0]), act(delegate))
            .await
            .unwrap();
        svc.act(&resigned, Some(&tokens[0]), act(Act::Resign))
            .await
            .unwrap();
        // Seat 0 resigns the match.
        svc.act(&resigned, Some(&tokens[0]), act(Act::End(Ending::Resigned)))
            .await
            .unwrap();

        let mut types = BTreeSet::new();
        for (id, token) in [
            (&all_bots, None),
            (&three, None),
            (&resigned, None),
            (&resigned, Some(tokens[0].as_str())),
        ] {
            let mut version = 0;
            for (n, sent) in shown(&svc, id, token).await.into_iter().enumerate() {
                let read: Event = serde_json::from_value(sent.clone())
                    .unwrap_or_else(|e| panic!("{sent} does not read as an Event: {e}"));
                assert_eq!(serde_json::to_value(&read).unwrap(), sent);
                types.insert(sent["type"].as_str().unwrap().to_string());
                // Numbered from 1; versions never go back; a seat sees its cards.
                assert_eq!(sent["seq"], n + 1);
                let v = sent["version"].as_u64().expect("a version");
                assert!(v >= version, "{sent}");
                version = v;
                if let Event::HandDealt(d) = read {
                    assert_eq!(d.cards.is_some(), token.is_some(), "{sent}");
                }
            }
        }
        let every: BTreeSet<String> = [
            "match_created",
            "hand_dealt",
            "delegated",
            "trump_chosen",
            "double_called",
            "card_played",
            "trick_won",
            "hand_forfeited",
            "hand_scored",
            "match_over",
            "match_ended",
            "bot_acted",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        assert_eq!(types, every);
        // Every engine event is one of them.
        let mut m = crate::rules::Match::new(crate::rules::Rules::default(), [1; 32]).unwrap();
        let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(1);
        let mut events = Vec::new();
        while m.turn().is_some() {
            crate::rules::random::step_random(&mut m, &mut rng, &mut events);
        }
        assert!(events.iter().all(|e| every.contains(type_of(e))));
    }
}
