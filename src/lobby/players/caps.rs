//! Caps on registering players, kept in the lobby's store so that they
//! hold across instances: players registered per client address per day
//! (UTC), and players in all.
//!
//! Each is a counter document taken by compare-and-set: two instances
//! racing for the last place cannot both get it.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::lobby::Lobby;
use crate::lobby::store::{Doc, LobbyStore};
use crate::lobby::update::{Step, upsert};
use crate::service::{Error, clock_now_ms};

/// A day, in milliseconds.
const DAY_MS: u64 = 24 * 3600 * 1000;

/// The id of the counter of players in all.
const ALL_PLAYERS: &str = "players";

/// A cap's counter as stored.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Counter {
    /// Places taken.
    count: u64,
}

/// Takes one of the `limit` places of counter `id`: `false` when all are
/// taken (nothing written then).
async fn take(
    store: &dyn LobbyStore,
    id: &str,
    limit: u64,
    ttl: Option<Duration>,
) -> Result<bool, Error> {
    let taken = upsert(
        store,
        Doc::Counter,
        id,
        |_| ttl,
        |c: &mut Counter| {
            if c.count >= limit {
                return Ok(Step::Keep(false));
            }
            c.count += 1;
            Ok(Step::Write(true))
        },
    )
    .await?;
    Ok(taken.answer)
}

/// Seconds until the next UTC day begins (when an address's daily count
/// starts again).
pub fn seconds_to_next_day() -> u64 {
    let now = clock_now_ms();
    (DAY_MS - now % DAY_MS).div_ceil(1000)
}

impl Lobby {
    /// Takes one of the `limit` registrations client address `addr` may
    /// make today (UTC; a `limit` of 0: no limit): `false` when today's are
    /// spent.
    ///
    /// # Errors
    /// `Busy` after lost races; `StoreUnavailable`.
    pub async fn take_daily_registration(&self, addr: &str, limit: u64) -> Result<bool, Error> {
        if limit == 0 {
            return Ok(true);
        }
        let day = clock_now_ms() / DAY_MS;
        let id = format!("players-per-address:{day}:{addr}");
        // Kept a little past its day, then forgotten.
        let ttl = Some(Duration::from_millis(2 * DAY_MS));
        take(self.store(), &id, limit, ttl).await
    }

    /// Takes one of the `limit` places for players in all (a `limit` of 0:
    /// no cap, and nothing counted).
    ///
    /// # Errors
    /// `CapacityReached` when all are taken; `Busy` after lost races;
    /// `StoreUnavailable`.
    pub async fn take_player_place(&self, limit: u64) -> Result<(), Error> {
        if limit == 0 || take(self.store(), ALL_PLAYERS, limit, None).await? {
            return Ok(());
        }
        crate::service::metrics::metrics().limit_hit("players_total");
        Err(Error::CapacityReached(format!(
            "limit: {limit} players in all; no more can be registered"
        )))
    }
}
