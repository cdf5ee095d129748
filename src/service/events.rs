//! Events as stored (every detail) and as shown (redacted per viewer).

use serde_json::{Value, json};

use super::Error;
use crate::rules::view::redact_event;
use crate::rules::{Action, Card, Event, Seat};

/// Serializes an engine event for storage.
///
/// # Errors
/// [`Error::Internal`] if the event does not serialize.
pub fn stored(e: &Event) -> Result<String, Error> {
    Ok(serde_json::to_string(e)?)
}

/// A service event: the match was created.
pub fn match_created(dealer: Seat, first_dealer_card: Option<Card>) -> String {
    json!({"type": "match_created", "dealer": dealer, "first_dealer_card": first_dealer_card})
        .to_string()
}

/// A service event: a house bot acted for a seat (`reason`: `house` for a
/// bot seat, `timeout` when a move clock ran out).
pub fn bot_acted(seat: Seat, bot: &str, action: &Action, reason: &str) -> String {
    json!({"type": "bot_acted", "seat": seat, "bot": bot, "action": action, "reason": reason})
        .to_string()
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
/// [`Error::Internal`] for a stored event that does not read back, or a
/// `hand_dealt` that does not read back as an engine event (it is never
/// shown).
pub fn redact(seq: u64, raw: &str, viewer: Option<Seat>) -> Result<EventView, Error> {
    let body = match serde_json::from_str::<Event>(raw) {
        Ok(e) => serde_json::to_value(redact_event(&e, viewer))?,
        Err(_) => {
            let v = serde_json::from_str::<Value>(raw)?;
            if v.get("type").and_then(Value::as_str) == Some("hand_dealt") {
                return Err(Error::Internal(format!(
                    "stored event {seq} is an unreadable hand_dealt"
                )));
            }
            v
        }
    };
    Ok(EventView { seq, body })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::CardSet;

    #[test]
    fn a_dealt_hand_shows_only_the_viewers_cards() {
        let hands = [CardSet(0b1), CardSet(0b10), CardSet(0b100), CardSet(0b1000)];
        let raw = stored(&Event::HandDealt {
            hand_number: 1,
            dealer: 0,
            hands: Box::new(hands),
        })
        .unwrap();
        let seat1 = redact(3, &raw, Some(1)).unwrap().body;
        assert_eq!(seat1["type"], "hand_dealt");
        assert!(seat1.get("hands").is_none(), "{seat1}");
        assert_eq!(seat1["cards"], json!([Card(1)]));
        let spectator = redact(3, &raw, None).unwrap().body;
        assert!(spectator.get("hands").is_none() && spectator.get("cards").is_none());
        // Service events pass as stored; an unreadable deal is an error,
        // never shown, and so is an event that is not JSON.
        let created = match_created(2, None);
        assert_eq!(
            redact(1, &created, None).unwrap().body["type"],
            "match_created"
        );
        let broken = r#"{"type":"hand_dealt","hands":[1,2,3,4],"extra":true}"#;
        assert!(matches!(
            redact(4, broken, Some(0)),
            Err(Error::Internal(_))
        ));
        assert!(matches!(redact(5, "{", Some(0)), Err(Error::Internal(_))));
    }
}
