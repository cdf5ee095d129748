//! The one check of a seat specification, shared by every way a seat is
//! given out: a new match, a table, a challenge, the queue.

use super::seat_player::{KEY_PREFIX, SeatPlayer};
use super::{Error, Service, input, names};

/// Why a seat naming another player is refused where it would seat that
/// player at once (a new match): nothing seats a player but its own key.
pub const CONSENT_DETAIL: &str = "a seat names a player only with that player's key (send it as \
     `Authorization: Bearer <key>` to sit yourself); to play another player, challenge it \
     (POST /v1/challenges) or reserve it a seat at a table (POST /v1/tables)";

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

/// A seat as checked: its display name as it is to be stored (in NFC),
/// and the registered player asked for.
#[derive(Clone, Debug)]
pub struct CheckedSeat {
    /// The display name asked for, normalized (see `names.rs`).
    pub name: Option<String>,
    /// The player asked for, resolved.
    pub player: Option<SeatPlayer>,
}

/// Checks one seat as asked, before any player is looked up: a known
/// house bot, a display name as
/// [`check_display_name`](super::check_display_name) wants it (at most
/// `max_name_len` characters), a player only at a remote seat, never a
/// house bot's player (house bots sit at bot seats), and no player given
/// two seats (`taken`: the ids given so far). Answers the name to store:
/// the one asked for, in NFC.
///
/// # Errors
/// `InvalidRequest`, saying what is wrong.
pub fn check_seat_spec(
    spec: SeatSpec<'_>,
    taken: &[&str],
    max_name_len: usize,
) -> Result<Option<String>, Error> {
    input::house_bot(spec.bot)?;
    let name = spec
        .name
        .map(|n| names::check_name(n, max_name_len))
        .transpose()?;
    let Some(id) = spec.player else {
        return Ok(name);
    };
    if spec.holder != Holder::Remote {
        return Err(Error::InvalidRequest(
            "only a remote seat can be a player's".into(),
        ));
    }
    if id.starts_with(super::HOUSE_PREFIX) {
        return Err(Error::InvalidRequest(format!(
            "{id} is a house bot's player: house bots sit at `bot` seats (a challenge \
             names them as opponents or partner, or seats them with `fill_with`)"
        )));
    }
    if taken.contains(&id) {
        return Err(Error::InvalidRequest(format!(
            "player {id} is given two seats"
        )));
    }
    Ok(name)
}

impl Service {
    /// Checks one seat of a new match or table against the seats already
    /// checked (`taken`: the players given so far), as
    /// [`check_seat_spec`] does: its name to store, and the player asked
    /// for, resolved.
    ///
    /// # Errors
    /// As [`check_seat_spec`]; `InvalidRequest` for no such player;
    /// `StoreUnavailable`.
    pub async fn check_seat(
        &self,
        spec: SeatSpec<'_>,
        taken: &[SeatPlayer],
    ) -> Result<CheckedSeat, Error> {
        let ids: Vec<&str> = taken.iter().map(|p| p.id.as_str()).collect();
        let name = check_seat_spec(spec, &ids, self.limits.max_name_len)?;
        let player = match spec.player {
            Some(id) => Some(self.hooks.seat_player(id).await?),
            None => None,
        };
        Ok(CheckedSeat { name, player })
    }
}

impl Service {
    /// The player whose key `credential` is; `None` without a credential.
    ///
    /// # Errors
    /// `Unauthorized` for a credential that is not a current player key;
    /// `StoreUnavailable`.
    pub async fn caller_player(&self, credential: Option<&str>) -> Result<Option<String>, Error> {
        match credential {
            None => Ok(None),
            Some(key) if key.starts_with(KEY_PREFIX) => {
                Ok(Some(self.hooks.authenticate(key).await?))
            }
            Some(_) => Err(Error::Unauthorized(
                "a seat names a player only with that player's API key as the bearer".into(),
            )),
        }
    }
}
