//! Events as stored (every detail) and as shown (redacted per viewer).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Error;
use crate::rules::view::redact_event;
use crate::rules::{Action, Card, Event, Seat};

/// An event as stored: the engine's, or one of the service's own. Stored
/// as the JSON of the event itself (a `type` and its fields), so events
/// written before this type existed read back alike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StoredEvent {
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

/// A service event: the match was created.
pub fn match_created(dealer: Seat, first_dealer_card: Option<Card>) -> StoredEvent {
    StoredEvent::Service(ServiceEvent::MatchCreated {
        dealer,
        first_dealer_card,
    })
}

/// A service event: a house bot acted for a seat (`reason`: `house` for a
/// bot seat, `timeout` when a move clock ran out).
pub fn bot_acted(seat: Seat, bot: &str, action: &Action, reason: &str) -> StoredEvent {
    StoredEvent::Service(ServiceEvent::BotActed {
        seat,
        bot: bot.to_string(),
        action: *action,
        reason: reason.to_string(),
    })
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
    redact_stored(seq, &serde_json::from_str::<StoredEvent>(raw)?, viewer)
}

/// [`redact`] for an event already read back.
///
/// # Errors
/// [`Error::Internal`] if it does not serialize.
pub fn redact_stored(
    seq: u64,
    event: &StoredEvent,
    viewer: Option<Seat>,
) -> Result<EventView, Error> {
    let body = match event {
        StoredEvent::Engine(e) => serde_json::to_value(redact_event(e, viewer))?,
        StoredEvent::Service(e) => serde_json::to_value(e)?,
    };
    Ok(EventView { seq, body })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::CardSet;
    use serde_json::json;

    #[test]
    fn a_dealt_hand_shows_only_the_viewers_cards() {
        let hands = [CardSet(0b1), CardSet(0b10), CardSet(0b100), CardSet(0b1000)];
        let raw = &encode(&[StoredEvent::Engine(Event::HandDealt {
            hand_number: 1,
            dealer: 0,
            hands: Box::new(hands),
        })])
        .unwrap()[0];
        let seat1 = redact(3, raw, Some(1)).unwrap().body;
        assert_eq!(seat1["type"], "hand_dealt");
        assert!(seat1.get("hands").is_none(), "{seat1}");
        assert_eq!(seat1["cards"], json!([Card(1)]));
        let spectator = redact(3, raw, None).unwrap().body;
        assert!(spectator.get("hands").is_none() && spectator.get("cards").is_none());
        // Service events pass as stored; an unreadable deal is an error,
        // never shown, and so is an event that is not JSON.
        let created = &encode(&[match_created(2, None)]).unwrap()[0];
        assert_eq!(
            redact(1, created, None).unwrap().body["type"],
            "match_created"
        );
        // Events as servers before the typed events stored them (keys in
        // alphabetical order) read back alike.
        let old = r#"{"action":{"type":"deal"},"bot":"heuristic","reason":"house","seat":1,"type":"bot_acted"}"#;
        assert_eq!(
            serde_json::from_str::<StoredEvent>(old).unwrap(),
            bot_acted(1, "heuristic", &Action::Deal, "house")
        );
        let old = r#"{"dealer":2,"first_dealer_card":null,"type":"match_created"}"#;
        assert_eq!(
            serde_json::from_str::<StoredEvent>(old).unwrap(),
            match_created(2, None)
        );
        let broken = r#"{"type":"hand_dealt","hands":[1,2,3,4],"extra":true}"#;
        assert!(matches!(
            redact(4, broken, Some(0)),
            Err(Error::Internal(_))
        ));
        assert!(matches!(redact(5, "{", Some(0)), Err(Error::Internal(_))));
    }
}
