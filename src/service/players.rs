//! Matches that know their players: a player's API key acts for its seats,
//! and its event stream hears when a match starts, when its seat is to
//! act and when the match is over.
//!
//! A match without players pays one scan of its seats per commit and
//! nothing else.

use super::record::MatchRecord;
use super::{Error, Service, tokens};
use crate::lobby::records::{self, PlayerEvent, PlayerRecord, SeatPlayer};
use crate::lobby::store::Doc;
use crate::rules::{Phase, Seat};

/// Attempts at bumping a player's count of matches played.
const BUMP_ATTEMPTS: usize = 8;

impl Service {
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
        match self.lobby.get(Doc::Player, id).await? {
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
        let hash = tokens::hash_token(key);
        match &player.key_sha256 {
            Some(stored) if tokens::hash_matches(&hash, stored) => Ok((version, player)),
            _ => Err(refused()),
        }
    }

    /// The public fields of player `id`, for a seat.
    ///
    /// # Errors
    /// `InvalidRequest` if there is no such player; `StoreUnavailable`.
    pub(super) async fn seat_player(&self, id: &str) -> Result<SeatPlayer, Error> {
        if records::house_player(id).is_some() {
            return Err(Error::InvalidRequest(format!(
                "{id} is a house bot's player: it sits at `bot` seats only"
            )));
        }
        match self.load_player(id).await? {
            Some((_, p)) => Ok(p.seat_player()),
            None => Err(Error::InvalidRequest(format!("no player with id {id:?}"))),
        }
    }

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
        let Some(key) = token.filter(|t| t.starts_with(records::KEY_PREFIX)) else {
            return Self::seat_of(rec, token);
        };
        let (_, player) = self.authenticate(key).await?;
        rec.seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.id == player.id))
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

    /// Appends `event` to `player`'s stream. A failure is logged, not
    /// returned: the match's own write has already been made.
    pub async fn publish(&self, player: &str, event: &PlayerEvent) {
        let pushed = match records::encode(event) {
            Ok(body) => self.lobby.push_event(player, &body).await.map(drop),
            Err(e) => {
                tracing::error!(error = %e, "player event does not serialize");
                return;
            }
        };
        if let Err(e) = pushed {
            tracing::warn!(player, error = %e, "player event not delivered");
        }
    }

    /// After a new match is stored: tells its players it started, then
    /// what [`after_commit`](Self::after_commit) tells.
    pub(super) async fn announce_start(&self, rec: &MatchRecord) {
        for (seat, s) in rec.seats.iter().enumerate() {
            if let Some(p) = &s.player {
                let event = PlayerEvent::MatchStarted {
                    match_id: rec.id.clone(),
                    seat: seat as Seat,
                };
                self.publish(&p.id, &event).await;
            }
        }
        self.after_commit(rec).await;
    }

    /// After a commit of `rec`: the player whose seat is to act hears it
    /// is its turn; when the match is over (only the commit that ended it
    /// can see that), every player hears so and has it counted.
    pub(super) async fn after_commit(&self, rec: &MatchRecord) {
        // House players have no stream and no stored record.
        if rec
            .seats
            .iter()
            .all(|s| s.player.as_ref().is_none_or(SeatPlayer::is_house))
        {
            return;
        }
        if rec.game.phase() == Phase::MatchOver {
            // A rated match counts each player's match with its rating.
            // (A failure is logged there; the next read of the match
            // applies what is missing.)
            let (changes, _) = self.apply_each(rec).await;
            let view = rec.game.view(None);
            let winner = serde_json::to_value(view.winner).unwrap_or_default();
            for (seat, s) in rec.seats.iter().enumerate() {
                if let Some(p) = s.player.as_ref().filter(|p| !p.is_house()) {
                    let rating = changes.get(seat).cloned().flatten();
                    let event = PlayerEvent::MatchOver {
                        match_id: rec.id.clone(),
                        seat: seat as Seat,
                        winner: winner.clone(),
                        scores: view.scores.clone(),
                        rating,
                    };
                    self.publish(&p.id, &event).await;
                    if rec.rated.is_none() {
                        self.count_match(&p.id).await;
                    }
                }
            }
            return;
        }
        if let Some(seat) = rec.game.turn()
            && let Some(p) = &rec.seats[seat as usize].player
            && !p.is_house()
        {
            let event = PlayerEvent::YourTurn {
                match_id: rec.id.clone(),
                seat,
                version: rec.version,
            };
            self.publish(&p.id, &event).await;
        }
    }

    /// Adds one to a player's matches played.
    async fn count_match(&self, id: &str) {
        for _ in 0..BUMP_ATTEMPTS {
            let Ok(Some((version, mut player))) = self.load_player(id).await else {
                return;
            };
            player.matches_played += 1;
            let Ok(state) = records::encode(&player) else {
                return;
            };
            match self
                .lobby
                .replace(Doc::Player, id, version, &state, None)
                .await
            {
                Ok(true) | Err(_) => return,
                Ok(false) => {}
            }
        }
    }
}
