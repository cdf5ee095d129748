//! The one check of a seat specification, shared by every way a seat is
//! given out: a new match, a table, a challenge, the queue.

use super::seat_player::SeatPlayer;
use super::{Error, Service, input};

/// How a seat is to be held, as far as the check cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    /// A client with the seat's token (or its player's key).
    Remote,
    /// A house bot.
    Bot,
    /// Nobody yet: a table's open seat.
    Open,
}

/// One seat as asked for.
#[derive(Clone, Copy, Debug)]
pub struct SeatSpec<'a> {
    /// How it is held.
    pub holder: Holder,
    /// The house bot that plays it or stands in for it.
    pub bot: &'a str,
    /// The display name asked for.
    pub name: Option<&'a str>,
    /// The registered player asked for, by id.
    pub player: Option<&'a str>,
}

impl Service {
    /// Checks one seat of a new match or table against the seats already
    /// checked (`taken`: the players given so far), and resolves the
    /// player asked for.
    ///
    /// # Errors
    /// `InvalidRequest` for an unknown house bot, a bad name, a player at
    /// a seat that is not remote, a house bot's player at a remote seat,
    /// no such player, or a player given two seats; `StoreUnavailable`.
    pub async fn check_seat(
        &self,
        spec: SeatSpec<'_>,
        taken: &[SeatPlayer],
    ) -> Result<Option<SeatPlayer>, Error> {
        input::house_bot(spec.bot)?;
        if let Some(name) = spec.name {
            input::check_name(name, self.limits.max_name_len)?;
        }
        let Some(id) = spec.player else {
            return Ok(None);
        };
        if spec.holder != Holder::Remote {
            return Err(Error::InvalidRequest(
                "only a remote seat can be a player's".into(),
            ));
        }
        if id
            .strip_prefix(super::HOUSE_PREFIX)
            .and_then(SeatPlayer::house)
            .is_some()
        {
            return Err(Error::InvalidRequest(format!(
                "{id} is a house bot's player: it sits at `bot` seats only"
            )));
        }
        let player = self.hooks.seat_player(id).await?;
        if taken.iter().any(|p| p.id == player.id) {
            return Err(Error::InvalidRequest(format!(
                "player {} is given two seats",
                player.id
            )));
        }
        Ok(Some(player))
    }
}
