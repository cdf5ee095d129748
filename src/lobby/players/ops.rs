//! Registering players, their keys, and reading their event streams.

use std::time::Duration;

use crate::lobby::Lobby;
use crate::lobby::records::{self, KEY_PREFIX, PlayerKind, PlayerRecord};
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, update};
use crate::service::{Error, clock_now_ms, hash_matches, hash_token, random_bytes};

/// A player to register.
#[derive(Clone, Debug)]
pub struct NewPlayer {
    /// Its display name.
    pub name: String,
    /// `human` or `bot`.
    pub kind: PlayerKind,
}

/// A registered player and its key, shown once.
#[derive(Clone, Debug)]
pub struct Registered {
    /// The player.
    pub player: PlayerRecord,
    /// The secret API key.
    pub api_key: String,
}

/// A page of a player's events.
#[derive(Clone, Debug)]
pub struct PlayerEventsPage {
    /// `(seq, event JSON)`, oldest first.
    pub events: Vec<(u64, serde_json::Value)>,
    /// The number of the player's last event.
    pub last_seq: u64,
}

/// A new key for `id`, and its hash.
fn new_key(id: &str) -> Result<(String, String), Error> {
    let key = format!("{KEY_PREFIX}{id}_{}", hex::encode(random_bytes::<32>()?));
    let hash = hash_token(&key);
    Ok((key, hash))
}

impl Lobby {
    /// Registers a player.
    ///
    /// # Errors
    /// `InvalidRequest` for a bad name; `StoreUnavailable`.
    pub async fn register(&self, req: NewPlayer) -> Result<Registered, Error> {
        self.register_from(req, None).await
    }

    /// Registers a player from client address `addr` (kept as its hash,
    /// never shown).
    ///
    /// # Errors
    /// `InvalidRequest` for a bad name; `StoreUnavailable`.
    pub async fn register_from(
        &self,
        req: NewPlayer,
        addr: Option<&str>,
    ) -> Result<Registered, Error> {
        let name = crate::service::check_display_name(&req.name, self.svc.limits().max_name_len)?;
        for _ in 0..4 {
            let id = format!("p{}", hex::encode(random_bytes::<12>()?));
            let (api_key, hash) = new_key(&id)?;
            let player = PlayerRecord {
                id: id.clone(),
                name: name.clone(),
                kind: req.kind,
                key_sha256: Some(hash),
                matches_played: 0,
                created_ms: clock_now_ms(),
                ratings: Default::default(),
                counted: Vec::new(),
                counted_horizon_ms: 0,
                origin: addr.map(|a| hash_token(&format!("origin:{a}"))),
            };
            let state = records::encode(&player)?;
            if self.store().insert(Doc::Player, &id, &state, None).await? {
                tracing::info!(player = %id, kind = ?req.kind, "player registered");
                return Ok(Registered { player, api_key });
            }
        }
        Err(Error::Internal("player id collisions".into()))
    }

    /// A player's public profile.
    ///
    /// # Errors
    /// `PlayerNotFound`; `StoreUnavailable`.
    pub async fn profile(&self, id: &str) -> Result<PlayerRecord, Error> {
        match self.core.load_player(id).await? {
            Some((_, p)) => Ok(p),
            None => Err(Error::PlayerNotFound),
        }
    }

    /// Replaces the key of the player `key` belongs to (`revoke`: with
    /// none); the old key stops working at once.
    ///
    /// # Errors
    /// `Unauthorized` for a wrong key; `Busy` after lost races; `StoreUnavailable`.
    pub async fn replace_key(&self, key: &str, revoke: bool) -> Result<Option<String>, Error> {
        let refused = || Error::Unauthorized("this is not a current player API key".into());
        // The key is checked on the record the write reads (one read, as
        // authenticating first and then updating would make two).
        let id = records::key_player(key).ok_or_else(refused)?;
        let presented = hash_token(key);
        let replaced = update(
            self.store(),
            Doc::Player,
            id,
            |_| None,
            refused,
            |player: &mut PlayerRecord| {
                if !player
                    .key_sha256
                    .as_deref()
                    .is_some_and(|stored| hash_matches(&presented, stored))
                {
                    return Err(refused());
                }
                if revoke {
                    player.key_sha256 = None;
                    return Ok(Step::Write(None));
                }
                let (key, hash) = new_key(&player.id)?;
                player.key_sha256 = Some(hash);
                Ok(Step::Write(Some(key)))
            },
        )
        .await?;
        tracing::info!(player = %id, revoke, "player key replaced");
        Ok(replaced.answer)
    }

    /// The events of `player` after `after`, waiting up to `wait_ms` for one.
    ///
    /// # Errors
    /// `InvalidRequest` for a wait or limit out of range; `StoreUnavailable`.
    pub async fn events(
        &self,
        player: &str,
        after: u64,
        wait_ms: u64,
        limit: usize,
    ) -> Result<PlayerEventsPage, Error> {
        let limits = self.svc.limits();
        if wait_ms > limits.max_wait_ms {
            return Err(Error::InvalidRequest(format!(
                "wait_ms is at most {}",
                limits.max_wait_ms
            )));
        }
        if limit == 0 || limit > limits.max_events_page {
            return Err(Error::InvalidRequest(format!(
                "limit is between 1 and {}",
                limits.max_events_page
            )));
        }
        let store = self.store();
        let (mut events, mut last) = store.events_after(player, after, limit).await?;
        if events.is_empty() && wait_ms > 0 && last <= after {
            last = store
                .wait_events(player, after, Duration::from_millis(wait_ms))
                .await?;
            if last > after {
                (events, last) = store.events_after(player, after, limit).await?;
            }
        }
        let events = events
            .into_iter()
            .map(|(seq, body)| Ok((seq, serde_json::from_str(&body)?)))
            .collect::<Result<_, Error>>()?;
        Ok(PlayerEventsPage {
            events,
            last_seq: last,
        })
    }
}
