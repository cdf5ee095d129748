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

/// Checks one seat as asked, before any player is looked up: a known
/// house bot, a printable name of at most `max_name_len` characters, a
/// player only at a remote seat, never a house bot's player (house bots
/// sit at bot seats), and no player given two seats (`taken`: the ids
/// given so far).
///
/// # Errors
/// `InvalidRequest`, saying what is wrong.
pub fn check_seat_spec(
    spec: SeatSpec<'_>,
    taken: &[&str],
    max_name_len: usize,
) -> Result<(), Error> {
    input::house_bot(spec.bot)?;
    if let Some(name) = spec.name {
        input::check_name(name, max_name_len)?;
    }
    let Some(id) = spec.player else {
        return Ok(());
    };
    if spec.holder != Holder::Remote {
        return Err(Error::InvalidRequest(
            "only a remote seat can be a player's".into(),
        ));
    }
    if id.starts_with(super::HOUSE_PREFIX) {
        return Err(Error::InvalidRequest(format!(
            "{id} is a house bot's player: house bots sit at `bot` seats (in a challenge, \
             seat them with `fill_with`)"
        )));
    }
    if taken.contains(&id) {
        return Err(Error::InvalidRequest(format!(
            "player {id} is given two seats"
        )));
    }
    Ok(())
}

impl Service {
    /// Checks one seat of a new match or table against the seats already
    /// checked (`taken`: the players given so far), as
    /// [`check_seat_spec`] does, and resolves the player asked for.
    ///
    /// # Errors
    /// As [`check_seat_spec`]; `InvalidRequest` for no such player;
    /// `StoreUnavailable`.
    pub async fn check_seat(
        &self,
        spec: SeatSpec<'_>,
        taken: &[SeatPlayer],
    ) -> Result<Option<SeatPlayer>, Error> {
        let ids: Vec<&str> = taken.iter().map(|p| p.id.as_str()).collect();
        check_seat_spec(spec, &ids, self.limits.max_name_len)?;
        match spec.player {
            Some(id) => Ok(Some(self.hooks.seat_player(id).await?)),
            None => Ok(None),
        }
    }
}
