//! Events as stored (every detail) and as shown (redacted per viewer).

use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::rules::{Action, Card, CardSet, Event, Seat};

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

/// Redacts a stored event for `viewer`: a `hand_dealt` event keeps only the
/// viewer's own cards (none for a spectator).
pub fn redact(seq: u64, raw: &str, viewer: Option<Seat>) -> EventView {
    let mut body: Value = serde_json::from_str(raw).unwrap_or(Value::Null);
    if body.get("type").and_then(Value::as_str) == Some("hand_dealt") {
        let hands = body.as_object_mut().and_then(|o| o.remove("hands"));
        if let Some(seat) = viewer {
            let bits = hands
                .as_ref()
                .and_then(|h| h.get(seat as usize))
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let cards: Vec<Card> = CardSet(bits & CardSet::FULL.0).iter().collect();
            body["cards"] = json!(cards);
        }
    }
    EventView { seq, body }
}
