//! Events as stored (every detail) and as shown (redacted per viewer).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Error;
use super::record::MatchRecord;
use crate::rules::view::redact_event;
use crate::rules::{Action, Card, Event, Seat};

/// An event as stored: what happened (the engine's event, or one of the
/// service's own), the match version its step produced, and the seat to
/// act after that step. Stored as the JSON of the event itself (a `type`
/// and its fields) with `version` and `turn` beside them, so events written
/// before versions were recorded read back too (without them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredEvent {
    /// What happened.
    #[serde(flatten)]
    pub event: EventBody,
    /// The match version the step that made this event produced (`0` for
    /// `match_created`); `None` only for events stored before versions were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// The seat to act once that step was played (`None` once the match is
    /// over, and for events stored before turns were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Seat>,
}

/// What a stored event says happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EventBody {
    /// An event of the engine.
    Engine(Event),
    /// An event of the service.
    Service(ServiceEvent),
}

/// The service's own events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServiceEvent {
    /// The match was created.
    MatchCreated {
        /// The first dealer.
        dealer: Seat,
        /// The card turned to draw the first dealer, if drawn.
        first_dealer_card: Option<Card>,
    },
    /// A house bot acted for a seat.
    BotActed {
        /// The seat acted for.
        seat: Seat,
        /// The house bot's name.
        bot: String,
        /// What it did.
        action: Action,
        /// `house` for a bot seat, `timeout` when a move clock ran out.
        reason: String,
    },
}

/// A service event: the match was created (at version 0, `turn` the
/// first dealer).
pub fn match_created(dealer: Seat, first_dealer_card: Option<Card>) -> StoredEvent {
    StoredEvent {
        event: EventBody::Service(ServiceEvent::MatchCreated {
            dealer,
            first_dealer_card,
        }),
        version: Some(0),
        turn: Some(dealer),
    }
}

/// A service event: a house bot acted for a seat (`reason`: `house` for a
/// bot seat, `timeout` when a move clock ran out); stamped by [`push_step`].
pub fn bot_acted(seat: Seat, bot: &str, action: &Action, reason: &str) -> ServiceEvent {
    ServiceEvent::BotActed {
        seat,
        bot: bot.to_string(),
        action: *action,
        reason: reason.to_string(),
    }
}

/// Appends the events of one step of `rec` (already played: `rec.version`
/// is the version it produced), each stamped with that version and the seat
/// to act now, and counts them in `rec.last_seq`. `service` (a
/// `bot_acted`) comes first when the step was a house move.
pub fn push_step(
    rec: &mut MatchRecord,
    out: &mut Vec<StoredEvent>,
    service: Option<ServiceEvent>,
    engine: impl IntoIterator<Item = Event>,
) {
    let (version, turn) = (Some(rec.version), rec.game.turn());
    let before = out.len();
    out.extend(
        service
            .map(EventBody::Service)
            .into_iter()
            .chain(engine.into_iter().map(EventBody::Engine))
            .map(|event| StoredEvent {
                event,
                version,
                turn,
            }),
    );
    rec.last_seq = Some(rec.last_seq.unwrap_or(0) + (out.len() - before) as u64);
}

/// Serializes events for the store.
///
/// # Errors
/// [`Error::Internal`] if one does not serialize.
pub fn encode(events: &[StoredEvent]) -> Result<Vec<String>, Error> {
    events
        .iter()
        .map(|e| Ok(serde_json::to_string(e)?))
        .collect()
}

/// One event as a viewer sees it.
#[derive(Clone, Debug)]
pub struct EventView {
    /// 1, 2, 3, … per match, never reused.
    pub seq: u64,
    /// The match version its step produced (absent on events stored before
    /// versions were).
    pub version: Option<u64>,
    /// The seat to act after that step (absent once the match is over, and
    /// on events stored before turns were).
    pub turn: Option<Seat>,
    /// The event itself: `type` (`match_created`, `hand_dealt`, `delegated`,
    /// `trump_chosen`, `double_called`, `card_played`, `trick_won`,
    /// `hand_forfeited`, `hand_scored`, `match_over`, `bot_acted`), `seat`
    /// where one acted, and its details.
    pub body: Value,
}

/// Redacts a stored event for `viewer`: an engine event goes through
/// [`redact_event`] (a `hand_dealt` keeps only the viewer's own cards, none
/// for a spectator); the service's own events (`match_created`,
/// `bot_acted`) are public.
///
/// # Errors
/// [`Error::Internal`] for a stored event that does not read back (a
/// `hand_dealt` among them: it is never shown unredacted).
pub fn redact(seq: u64, raw: &str, viewer: Option<Seat>) -> Result<EventView, Error> {
    let StoredEvent {
        event,
        version,
        turn,
    } = serde_json::from_str::<StoredEvent>(raw)?;
    let body = match event {
        EventBody::Engine(e) => serde_json::to_value(redact_event(&e, viewer))?,
        EventBody::Service(e) => serde_json::to_value(e)?,
    };
    Ok(EventView {
        seq,
        version,
        turn,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::CardSet;
    use serde_json::json;

    fn stamped(event: EventBody, version: u64, turn: Option<Seat>) -> StoredEvent {
        StoredEvent {
            event,
            version: Some(version),
            turn,
        }
    }

    #[test]
    fn a_dealt_hand_shows_only_the_viewers_cards() {
        let hands = [CardSet(0b1), CardSet(0b10), CardSet(0b100), CardSet(0b1000)];
        let dealt = EventBody::Engine(Event::HandDealt {
            hand_number: 1,
            dealer: 0,
            hands: Box::new(hands),
        });
        let raw = &encode(&[stamped(dealt, 1, Some(0))]).unwrap()[0];
        let seat1 = redact(3, raw, Some(1)).unwrap();
        assert_eq!((seat1.version, seat1.turn), (Some(1), Some(0)));
        let seat1 = seat1.body;
        assert_eq!(seat1["type"], "hand_dealt");
        assert!(seat1.get("hands").is_none(), "{seat1}");
        assert_eq!(seat1["cards"], json!([Card(1)]));
        let spectator = redact(3, raw, None).unwrap().body;
        assert!(spectator.get("hands").is_none() && spectator.get("cards").is_none());
        // Service events pass as stored; an unreadable deal is an error,
        // never shown, and so is an event that is not JSON.
        let created = &encode(&[match_created(2, None)]).unwrap()[0];
        let shown = redact(1, created, None).unwrap();
        assert_eq!(shown.body["type"], "match_created");
        assert_eq!((shown.version, shown.turn), (Some(0), Some(2)));
        let broken = r#"{"type":"hand_dealt","hands":[1,2,3,4],"extra":true}"#;
        assert!(matches!(
            redact(4, broken, Some(0)),
            Err(Error::Internal(_))
        ));
        assert!(matches!(redact(5, "{", Some(0)), Err(Error::Internal(_))));
    }

    #[test]
    fn events_stored_without_a_version_still_read_back() {
        // As servers before the typed events stored them (keys in
        // alphabetical order), and before versions were stored.
        let old = r#"{"action":{"type":"deal"},"bot":"heuristic","reason":"house","seat":1,"type":"bot_acted"}"#;
        let unversioned = |event| StoredEvent {
            event,
            version: None,
            turn: None,
        };
        assert_eq!(
            serde_json::from_str::<StoredEvent>(old).unwrap(),
            unversioned(EventBody::Service(bot_acted(
                1,
                "heuristic",
                &Action::Deal,
                "house"
            )))
        );
        let old = r#"{"dealer":2,"first_dealer_card":null,"type":"match_created"}"#;
        let shown = redact(1, old, None).unwrap();
        assert_eq!((shown.version, shown.turn), (None, None));
        assert_eq!(
            shown.body,
            json!({"type": "match_created", "dealer": 2, "first_dealer_card": null})
        );
        let old = r#"{"type":"card_played","seat":3,"card":"9O"}"#;
        let shown = redact(7, old, Some(0)).unwrap();
        assert_eq!(shown.body["card"], "9O");
        assert_eq!(shown.version, None);
    }

    #[test]
    fn a_stored_event_keeps_its_version_and_turn_beside_its_fields() {
        let e = stamped(
            EventBody::Engine(Event::CardPlayed {
                seat: 3,
                card: Card(9),
            }),
            41,
            Some(0),
        );
        let raw = &encode(std::slice::from_ref(&e)).unwrap()[0];
        let v: Value = serde_json::from_str(raw).unwrap();
        assert_eq!(v["version"], 41);
        assert_eq!(v["turn"], 0);
        assert_eq!(v["type"], "card_played");
        assert_eq!(serde_json::from_str::<StoredEvent>(raw).unwrap(), e);
        // Once the match is over no seat is to act: `turn` is left out.
        let over = StoredEvent { turn: None, ..e };
        let raw = &encode(std::slice::from_ref(&over)).unwrap()[0];
        assert!(!raw.contains("turn"), "{raw}");
        assert_eq!(serde_json::from_str::<StoredEvent>(raw).unwrap(), over);
    }
}
