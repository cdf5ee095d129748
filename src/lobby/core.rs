//! What every room of the lobby shares: the lobby store, players looked
//! up by id or key, their event streams, and the [`Hooks`] through which
//! the match service tells the lobby what happened to a match.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;

use super::records::{self, PlayerEvent, PlayerRecord, RatingChange, SeatPlayer};
use super::store::{Doc, LobbyStore};
use crate::rating::Rating;
use crate::rules::{Phase, Seat};
use crate::service::{Error, Hooks, MatchRecord, hash_matches, hash_token};

/// The lobby's store and the player lookups every room needs; the match
/// service's [`Hooks`].
pub struct LobbyCore {
    store: Arc<dyn LobbyStore>,
    pub(super) settled: Settled,
    pub(super) turns: super::turns::Turns,
    pub(super) joins: super::turns::Batches<super::queue::JoinReq>,
    /// The tournaments a match of which this instance saw end.
    pub(super) tournaments: super::tournaments::Watch,
}

impl LobbyCore {
    /// The lobby over `store`.
    pub fn new(store: Arc<dyn LobbyStore>) -> LobbyCore {
        LobbyCore {
            store,
            settled: Settled::default(),
            turns: super::turns::Turns::default(),
            joins: super::turns::Batches::default(),
            tournaments: super::tournaments::Watch::default(),
        }
    }

    /// Where players, tables and player streams are kept.
    pub fn store(&self) -> &dyn LobbyStore {
        self.store.as_ref()
    }

    /// A player's record and its version; `None` if there is no such player.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Internal` if the record does not parse.
    pub async fn load_player(&self, id: &str) -> Result<Option<(u64, PlayerRecord)>, Error> {
        if let Some(house) = records::house_player(id) {
            return Ok(Some((0, house)));
        }
        if !records::valid_player_id(id) {
            return Ok(None);
        }
        match self.store.get(Doc::Player, id).await? {
            Some(snap) => Ok(Some((snap.version, records::decode(&snap.state)?))),
            None => Ok(None),
        }
    }

    /// The player whose API key this is.
    ///
    /// # Errors
    /// `Unauthorized` for anything but a current key; `StoreUnavailable`.
    pub async fn authenticate(&self, key: &str) -> Result<(u64, PlayerRecord), Error> {
        let refused = || Error::Unauthorized("this is not a current player API key".into());
        let id = records::key_player(key).ok_or_else(refused)?;
        let (version, player) = self.load_player(id).await?.ok_or_else(refused)?;
        let hash = hash_token(key);
        match &player.key_sha256 {
            Some(stored) if hash_matches(&hash, stored) => Ok((version, player)),
            _ => Err(refused()),
        }
    }

    /// Appends `event` to `player`'s stream. A failure is logged, not
    /// returned: the write the event tells of has already been made.
    pub async fn publish(&self, player: &str, event: &PlayerEvent) {
        let pushed = match records::encode(event) {
            Ok(body) => self.store.push_event(player, &body).await.map(drop),
            Err(e) => {
                tracing::error!(error = %e, "player event does not serialize");
                return;
            }
        };
        if let Err(e) = pushed {
            tracing::warn!(player, error = %e, "player event not delivered");
        }
    }

    /// Appends `event` to `player`'s stream unless an event with the key
    /// `once` was appended before: what several instances may each try to
    /// tell (see `tournaments/advance.rs`) reaches the player once.
    ///
    /// # Errors
    /// `StoreUnavailable`, so that the caller tells again later.
    pub async fn publish_once(
        &self,
        player: &str,
        once: &str,
        event: &PlayerEvent,
    ) -> Result<(), Error> {
        let body = records::encode(event)?;
        self.store.push_event_once(player, once, &body).await?;
        Ok(())
    }

    /// Tells the player whose seat is to act in `rec` that it is its
    /// turn, once per version: the writer tells, and a tell check of the
    /// scheduler tells again what a writer that stopped did not.
    async fn tell_turn(&self, rec: &MatchRecord) -> Result<(), Error> {
        let Some((seat, p)) = rec.player_to_act() else {
            return Ok(());
        };
        let event = PlayerEvent::YourTurn {
            match_id: rec.id.clone(),
            seat,
            version: rec.version,
        };
        let once = format!("turn:{}:{}", rec.id, rec.version);
        self.publish_once(&p.id, &once, &event).await
    }

    /// [`list_match`](LobbyCore::list_match), a failure logged: the
    /// scheduler lists a finished match again when it settles it.
    async fn list_logged(&self, rec: &MatchRecord) {
        if let Err(e) = self.list_match(rec).await {
            tracing::warn!(match_id = %rec.id, error = %e, "match not listed");
        }
    }

    /// A finished match: every player has it counted, once (with its
    /// rating when rated; see `ratings/apply.rs`), then hears so; whether
    /// every player was told.
    async fn match_over(&self, rec: &MatchRecord) -> bool {
        // A failure is logged there; the scheduler settles what is
        // missing (the finished match stays due until it is settled).
        self.list_logged(rec).await;
        let (changes, _) = self.apply_each(rec).await;
        match self.tell_over(rec, &changes).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(match_id = %rec.id, error = %e, "match_over left to the scheduler");
                false
            }
        }
    }

    /// Tells every player of finished match `rec` that it is over, with
    /// its rating change from `changes` (by seat), once per player
    /// however many instances tell it (the writer that ended it, and the
    /// scheduler when it settles it); the first failure, after trying
    /// every player.
    async fn tell_over(
        &self,
        rec: &MatchRecord,
        changes: &[Option<RatingChange>],
    ) -> Result<(), Error> {
        let view = rec.game.view(None);
        let winner = serde_json::to_value(view.winner).unwrap_or_default();
        let once = format!("over:{}", rec.id);
        let mut failed = Ok(());
        for (seat, s) in rec.seats.iter().enumerate() {
            if let Some(p) = s.player.as_ref().filter(|p| !p.is_house()) {
                let event = PlayerEvent::MatchOver {
                    match_id: rec.id.clone(),
                    seat: seat as Seat,
                    winner: winner.clone(),
                    scores: view.scores.clone(),
                    rating: changes.get(seat).cloned().flatten(),
                };
                if let Err(e) = self.publish_once(&p.id, &once, &event).await {
                    failed = failed.and(Err(e));
                }
            }
        }
        failed
    }
}

#[async_trait]
impl Hooks for LobbyCore {
    async fn authenticate(&self, key: &str) -> Result<String, Error> {
        Ok(LobbyCore::authenticate(self, key).await?.1.id)
    }

    async fn seat_player(&self, id: &str) -> Result<SeatPlayer, Error> {
        match self.load_player(id).await? {
            Some((_, p)) => Ok(p.seat_player()),
            None => Err(Error::InvalidRequest(format!("no player with id {id:?}"))),
        }
    }

    async fn rating(&self, id: &str, pool: &str) -> Result<Option<Rating>, Error> {
        Ok(self.load_player(id).await?.map(|(_, p)| p.rating_in(pool)))
    }

    /// Lists the match among its players' matches, tells them it
    /// started, then what [`committed`](Hooks::committed) tells (and
    /// answers whether the turn was told).
    async fn started(&self, rec: &MatchRecord) -> bool {
        self.list_logged(rec).await;
        for (seat, s) in rec.seats.iter().enumerate() {
            if let Some(p) = &s.player {
                let event = PlayerEvent::MatchStarted {
                    match_id: rec.id.clone(),
                    seat: seat as Seat,
                };
                self.publish(&p.id, &event).await;
            }
        }
        self.committed(rec).await
    }

    /// The player whose seat is to act hears it is its turn; when the
    /// match is over (only the commit that ended it can see that), every
    /// player hears so and has it counted, and a tournament's match has
    /// its tournament read at the next tick. Whether the turn was told.
    async fn committed(&self, rec: &MatchRecord) -> bool {
        if rec.game.phase() == Phase::MatchOver {
            self.tournaments.match_over(&rec.id);
        }
        // House players have no stream and no stored record.
        if rec
            .seats
            .iter()
            .all(|s| s.player.as_ref().is_none_or(SeatPlayer::is_house))
        {
            return true;
        }
        if rec.game.phase() == Phase::MatchOver {
            return self.match_over(rec).await;
        }
        match self.tell_turn(rec).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(match_id = %rec.id, error = %e, "your_turn left to the tell check");
                false
            }
        }
    }

    async fn retell(&self, rec: &MatchRecord) -> Result<(), Error> {
        self.tell_turn(rec).await
    }

    /// Also tells every player the match is over again, at most once
    /// each: its writer may have stopped before telling them.
    async fn settle(&self, rec: &MatchRecord) -> Result<(), Error> {
        self.tournaments.match_over(&rec.id);
        self.list_match(rec).await?;
        let changes = self.settle_ratings(rec).await?;
        self.tell_over(rec, &changes).await
    }
}

/// Matches this process has seen fully applied, with each seat's rating
/// change, so that settling one again needs no store read; forgotten
/// wholesale at this size.
const SETTLED_KEPT: usize = 4096;

/// The matches this process has seen fully applied, and what each seat's
/// rating changed by (`None` where it did not move).
#[derive(Default)]
pub(super) struct Settled(Mutex<HashMap<String, Vec<Option<RatingChange>>>>);

impl Settled {
    /// The rating changes of match `id`, by seat, if it was seen fully
    /// applied.
    pub(super) fn changes(&self, id: &str) -> Option<Vec<Option<RatingChange>>> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned()
    }

    /// Notes match `id` as fully applied, with its `changes` by seat.
    pub(super) fn insert(&self, id: &str, changes: &[Option<RatingChange>]) {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() >= SETTLED_KEPT {
            map.clear();
        }
        map.insert(id.to_string(), changes.to_vec());
    }
}
