//! Players as matches know them: the public fields stored at a seat, and
//! the prefixes that tell a player's key and a house bot's player apart.

use serde::{Deserialize, Serialize};

/// The prefix of every player API key (seat tokens start `bt_`): a
/// credential with it is a player's key, checked by the [`Hooks`](super::Hooks).
pub const KEY_PREFIX: &str = "bp_";

/// The id prefix of the house bots' players: `house-<bot>` for every
/// house bot name (`house-heuristic`, `house-expert`, …).
pub const HOUSE_PREFIX: &str = "house-";

/// Who a player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    /// A person, through some front end.
    Human,
    /// A program.
    Bot,
}

/// A player as every viewer of a match or table sees it: its public
/// profile fields, as they were when it sat down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPlayer {
    /// The player's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `human` or `bot`.
    pub kind: PlayerKind,
}

impl SeatPlayer {
    /// Whether this is a house bot's player (who has no event stream).
    pub fn is_house(&self) -> bool {
        self.id.starts_with(HOUSE_PREFIX)
    }

    /// The player house bot `bot` is (`house-<bot>`), if `bot` is a house
    /// bot's name.
    pub fn house(bot: &str) -> Option<SeatPlayer> {
        let bot = crate::bots::NAMES.iter().find(|&&n| n == bot)?;
        Some(SeatPlayer {
            id: format!("{HOUSE_PREFIX}{bot}"),
            name: format!("house bot {bot}"),
            kind: PlayerKind::Bot,
        })
    }
}
