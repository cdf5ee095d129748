//! Matches that know their players: a player's API key acts for its seats,
//! found among the seats of the match (what the hooks are told is told
//! directly, through `self.hooks`).

use super::record::MatchRecord;
use super::seat_player::KEY_PREFIX;
use super::{Error, Service};
use crate::rules::Seat;

impl Service {
    /// The seat of the caller: by seat token, or by the API key of the
    /// player seated there; `None` without either.
    ///
    /// # Errors
    /// `Unauthorized` for a wrong token or key; `Forbidden` for a player
    /// with no seat in this match.
    pub(super) async fn caller_seat(
        &self,
        rec: &MatchRecord,
        token: Option<&str>,
    ) -> Result<Option<Seat>, Error> {
        let Some(key) = token.filter(|t| t.starts_with(KEY_PREFIX)) else {
            return Self::seat_of(rec, token);
        };
        let player = self.hooks.authenticate(key).await?;
        rec.seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.id == player))
            .map(|i| Some(i as Seat))
            .ok_or_else(|| Error::Forbidden("this player has no seat in this match".into()))
    }

    /// Like [`caller_seat`](Self::caller_seat), requiring a caller.
    pub(super) async fn require_caller(
        &self,
        rec: &MatchRecord,
        token: Option<&str>,
    ) -> Result<Seat, Error> {
        self.caller_seat(rec, token).await?.ok_or_else(|| {
            Error::Unauthorized(
                "send the seat token or the player's key as `Authorization: Bearer <token>`".into(),
            )
        })
    }
}
