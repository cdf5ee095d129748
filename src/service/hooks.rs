//! The one narrow interface between matches and whatever keeps players:
//! what the match service asks of a player directory, and what it tells
//! after each write.
//!
//! The service knows players only as the [`SeatPlayer`] stored at a seat.
//! It asks the [`Hooks`] to turn a player's API key into a player id, to
//! describe a player who is seated, and for a player's rating in a rated
//! pool; and it tells them when a match was created, after every commit,
//! and, from the scheduler, when a finished match is due or a match was
//! looked at with nothing to play (so that work the committing instance
//! could not finish, such as a rating update or telling a player, is
//! finished by another). The lobby implements the hooks; a service without them
//! ([`NoPlayers`]) serves anonymous matches only.

use async_trait::async_trait;

use super::Error;
use super::record::MatchRecord;
use super::seat_player::SeatPlayer;
use crate::rating::Rating;

/// What the match service asks of the players' directory and tells it.
///
/// Every telling method is called after the match's own write has been
/// made: a failure there never undoes it. `started` and `committed`
/// answer whether they told the seat to act, so that the caller leaves
/// the scheduler to tell it again; the scheduler's calls answer their
/// errors, to be tried again.
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

    /// A new match was stored; whether the seat to act, if a player's,
    /// was told (as [`Hooks::committed`]).
    async fn started(&self, rec: &MatchRecord) -> bool;

    /// A commit of `rec` was stored (the turn may have passed, the match
    /// may be over); whether the seat to act, if a player's, was told
    /// (`false`: the scheduler's tell check is left to tell it).
    async fn committed(&self, rec: &MatchRecord) -> bool;

    /// `rec` was looked at with nothing to play (the scheduler calls
    /// this): tell again, at most once each, what its last commit told the
    /// seat to act, which its writer may have stopped before telling.
    ///
    /// # Errors
    /// When it could not be told: the match is looked at again.
    async fn retell(&self, rec: &MatchRecord) -> Result<(), Error>;

    /// `rec` is over and due (the scheduler calls this): finish what its
    /// committing instance may have left undone (ratings, counts).
    ///
    /// # Errors
    /// When something could not be finished: the match stays due and is
    /// tried again.
    async fn settle(&self, rec: &MatchRecord) -> Result<(), Error>;
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

    async fn started(&self, _rec: &MatchRecord) -> bool {
        true
    }

    async fn committed(&self, _rec: &MatchRecord) -> bool {
        true
    }

    async fn retell(&self, _rec: &MatchRecord) -> Result<(), Error> {
        Ok(())
    }

    async fn settle(&self, _rec: &MatchRecord) -> Result<(), Error> {
        Ok(())
    }
}
