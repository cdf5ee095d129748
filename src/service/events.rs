//! Events as stored (every detail) and as shown (redacted per viewer).

use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::rules::view::redact_event;
use crate::rules::{Action, Card, Event, Seat};

/// Serializes an engine event for storage.
pub fn stored(e: &Event) -> String {
    serde_json::to_string(e).unwrap_or_else(|_| "{}".into())
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
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EventView {
    /// 1, 2, 3, … per match, never reused.
    pub seq: u64,
    /// The event itself: `type` (`match_created`, `hand_dealt`, `delegated`,
    /// `trump_chosen`, `double_called`, `card_played`, `trick_won`,
    /// `hand_forfeited`, `hand_scored`, `match_over`, `bot_acted`), `seat`
    /// where one acted, and its details.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub body: Value,
}

/// Redacts a stored event for `viewer`: an engine event goes through
/// [`redact_event`] (a `hand_dealt` keeps only the viewer's own cards, none
/// for a spectator); the service's own events (`match_created`,
/// `bot_acted`) are public. A stored `hand_dealt` that does not read back as
/// an engine event is never shown.
pub fn redact(seq: u64, raw: &str, viewer: Option<Seat>) -> EventView {
    let body = match serde_json::from_str::<Event>(raw) {
        Ok(e) => redact_event(&e, viewer),
        Err(_) => match serde_json::from_str::<Value>(raw) {
            Ok(v) if v.get("type").and_then(Value::as_str) != Some("hand_dealt") => v,
            _ => Value::Null,
        },
    };
    EventView { seq, body }
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
        });
        let seat1 = redact(3, &raw, Some(1)).body;
        assert_eq!(seat1["type"], "hand_dealt");
        assert!(seat1.get("hands").is_none(), "{seat1}");
        assert_eq!(seat1["cards"], json!([Card(1)]));
        let spectator = redact(3, &raw, None).body;
        assert!(spectator.get("hands").is_none() && spectator.get("cards").is_none());
        // Service events pass as stored; an unreadable deal is not shown.
        let created = match_created(2, None);
        assert_eq!(redact(1, &created, None).body["type"], "match_created");
        let broken = r#"{"type":"hand_dealt","hands":[1,2,3,4],"extra":true}"#;
        assert_eq!(redact(4, broken, Some(0)).body, Value::Null);
    }
}
