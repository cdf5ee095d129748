//! A seated player's public profile as the API shows it: its id, name and
//! kind (for the player event schemas as for the players' answers).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::lobby::records;

/// Who a player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    /// A person, through some front end.
    Human,
    /// A program.
    Bot,
}

impl From<PlayerKind> for records::PlayerKind {
    fn from(k: PlayerKind) -> records::PlayerKind {
        match k {
            PlayerKind::Human => records::PlayerKind::Human,
            PlayerKind::Bot => records::PlayerKind::Bot,
        }
    }
}

impl From<records::PlayerKind> for PlayerKind {
    fn from(k: records::PlayerKind) -> PlayerKind {
        match k {
            records::PlayerKind::Human => PlayerKind::Human,
            records::PlayerKind::Bot => PlayerKind::Bot,
        }
    }
}

/// A seated player's public profile fields.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatPlayer {
    /// The player's id.
    #[schema(example = "p6f1c0a9e2b4d8c7a5e3f1b2c")]
    pub id: String,
    /// Its name when it sat down.
    #[schema(example = "robobot")]
    pub name: String,
    /// `human` or `bot`.
    pub kind: PlayerKind,
}

impl From<records::SeatPlayer> for SeatPlayer {
    fn from(p: records::SeatPlayer) -> SeatPlayer {
        let records::SeatPlayer { id, name, kind } = p;
        SeatPlayer {
            id,
            name,
            kind: kind.into(),
        }
    }
}
