//! The one narrow interface between matches and whatever keeps players:
//! what the match service asks of a player directory, and what it tells
//! after each write.
//!
//! The service knows players only as the [`SeatPlayer`] stored at a seat.
//! It asks the [`Hooks`] to turn a player's API key into a player id, to
//! describe a player who is seated, and for a player's rating in a rated
//! pool; and it tells them when a match was created, after every commit,
//! and when a finished match is read (so that work the committing instance
//! could not finish, such as a rating update, is finished by the next
//! reader). The lobby implements the hooks; a service without them
//! ([`NoPlayers`]) serves anonymous matches only.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::Error;
use super::record::MatchRecord;
use crate::rating::Rating;

/// The prefix of every player API key (seat tokens start `bt_`): a
/// credential with it is a player's key, checked by the [`Hooks`].
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

/// What the match service asks of the players' directory and tells it.
///
/// Every telling method is called after the match's own write has been
/// made: a failure there is the hooks' to log, never the caller's.
#[async_trait]
pub trait Hooks: Send + Sync + 'static {
    /// The id of the player whose API key `key` is.
    ///
    /// # Errors
    /// `Unauthorized` for anything but a current key; `StoreUnavailable`.
    async fn authenticate(&self, key: &str) -> Result<String, Error>;

    /// The public fields of registered player `id`, to seat it.
    ///
    /// # Errors
    /// `InvalidRequest` if there is no such player; `StoreUnavailable`.
    async fn seat_player(&self, id: &str) -> Result<SeatPlayer, Error>;

    /// Player `id`'s current rating in `pool`; `None` if there is no such
    /// player.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    async fn rating(&self, id: &str, pool: &str) -> Result<Option<Rating>, Error>;

    /// A new match was stored.
    async fn started(&self, rec: &MatchRecord);

    /// A commit of `rec` was stored (the turn may have passed, the match
    /// may be over).
    async fn committed(&self, rec: &MatchRecord);

    /// `rec` was read: a chance to finish what its committing instance may
    /// have left undone.
    async fn viewed(&self, rec: &MatchRecord);
}

/// The hooks of a service without players: every key is refused, no
/// player can be seated, and nobody hears anything.
pub struct NoPlayers;

#[async_trait]
impl Hooks for NoPlayers {
    async fn authenticate(&self, _key: &str) -> Result<String, Error> {
        Err(Error::Unauthorized(
            "this is not a current player API key".into(),
        ))
    }

    async fn seat_player(&self, id: &str) -> Result<SeatPlayer, Error> {
        Err(Error::InvalidRequest(format!("no player with id {id:?}")))
    }

    async fn rating(&self, _id: &str, _pool: &str) -> Result<Option<Rating>, Error> {
        Ok(None)
    }

    async fn started(&self, _rec: &MatchRecord) {}

    async fn committed(&self, _rec: &MatchRecord) {}

    async fn viewed(&self, _rec: &MatchRecord) {}
}
