//! Rated matches that end: each player's Glicko-2 rating moves, exactly
//! once.
//!
//! One match is one rating period. In `pairs` a player plays one game
//! against the opposing pair (folded into one opponent by
//! [`rating::side_opponent`]), scored 1, 0.5 or 0 by the match's winner;
//! in `abarrotada` and `abarrotada3` one game against every other seat,
//! scored by the final totals (the higher wins, equal totals are a draw).
//! Opponents count as they stood when the match was created
//! ([`RatedMatch::before`]); the player's *current* rating is the one
//! updated. House bots' ratings are anchors and never move.
//!
//! Exactly once: the update is one compare-and-set on the player's
//! record, which lists the match as applied (the last
//! [`APPLIED_KEPT`](records::APPLIED_KEPT) per pool), and a match listed
//! there is never applied again. Older matches are covered by a horizon: a
//! match created no later than the newest match dropped from the list
//! counts as applied. The change itself goes to the player's
//! [`RatingHistory`] (the last [`HISTORY_KEPT`](records::HISTORY_KEPT)
//! per pool), written just before. The commit that ends the match applies
//! it; if that instance dies first, the scheduler of any instance applies
//! what is missing (a finished match with players is due until then).

use super::fair::{self, rated_games};
use crate::lobby::Lobby;
use crate::lobby::core::LobbyCore;
use crate::lobby::records::{
    self, PlayerRecord, RatingChange, RatingEntry, RatingHistory, SeatPlayer,
};
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, update, update_async, upsert};
use crate::rating::Rating;
use crate::rules::{Phase, Seat};
use crate::service::{Error, MatchRecord, RatedMatch, SeatKind, clock_now_ms as now_ms};

/// The index of a pool's leaderboard.
pub fn leaderboard_index(pool: &str) -> String {
    format!("leaderboard:{pool}")
}

/// The largest rating the leaderboard orders (in hundredths).
const BOARD_MAX: i64 = 9_999_999;

/// A player's entry in its pool's leaderboard: sorted as text, highest
/// rating first (the rating in hundredths, subtracted from a constant and
/// zero-padded), then by id.
pub fn leaderboard_entry(rating: &Rating, id: &str) -> String {
    let hundredths = (rating.rating * 100.0).round().clamp(0.0, BOARD_MAX as f64) as i64;
    format!("{:07}:{id}", BOARD_MAX - hundredths)
}

/// The player id of a leaderboard entry.
pub fn leaderboard_id(entry: &str) -> Option<&str> {
    entry.split_once(':').map(|(_, id)| id)
}

/// The registered players of a match (not house bots), at any seat.
fn registered_players(rec: &MatchRecord) -> impl Iterator<Item = &SeatPlayer> {
    rec.seats
        .iter()
        .filter_map(|s| s.player.as_ref().filter(|p| !p.is_house()))
}

/// The players of a match whose ratings move: registered players at
/// remote seats.
fn rated_seats(rec: &MatchRecord) -> impl Iterator<Item = (Seat, &SeatPlayer)> {
    rec.seats.iter().enumerate().filter_map(|(i, s)| {
        s.player
            .as_ref()
            .filter(|p| s.kind == SeatKind::Remote && !p.is_house())
            .map(|p| (i as Seat, p))
    })
}

impl LobbyCore {
    /// Applies a finished rated match to its players' ratings, once: what
    /// it changed per seat (`None` for house bots, players no longer
    /// stored, and matches too old to tell). Calling it again, from any
    /// instance, changes nothing and tells the same changes.
    ///
    /// # Errors
    /// `Busy` after lost races; `StoreUnavailable`; `Internal` for a record
    /// that does not parse.
    pub(in crate::lobby) async fn apply_ratings(
        &self,
        rec: &MatchRecord,
    ) -> Result<Vec<Option<RatingChange>>, Error> {
        match self.apply_each(rec).await {
            (changes, None) => Ok(changes),
            (_, Some(e)) => Err(e),
        }
    }

    /// [`apply_ratings`](Self::apply_ratings), trying every player whatever
    /// happens to the others: the changes made, and the first failure (the
    /// match then stays unsettled, for the scheduler to finish). Every
    /// registered player of a finished match has it counted in
    /// `matches_played` once: with its rating when it is rated, else in its
    /// record's list of counted matches.
    pub(in crate::lobby) async fn apply_each(
        &self,
        rec: &MatchRecord,
    ) -> (Vec<Option<RatingChange>>, Option<Error>) {
        let mut changes = vec![None; rec.seats.len()];
        if rec.game.phase() != Phase::MatchOver {
            return (changes, None);
        }
        let mut failed = None;
        let mut rated_ids = Vec::new();
        if let Some(rated) = rec.rated.as_ref() {
            let origins = match self.origins(rec).await {
                Ok(origins) => origins,
                Err(e) => return (changes, Some(e)),
            };
            for (seat, p) in rated_seats(rec) {
                if rated_games(rec, rated, seat).is_empty() {
                    continue;
                }
                rated_ids.push(p.id.as_str());
                match self.rate_player(rec, (rated, seat), &origins, &p.id).await {
                    Ok(change) => changes[seat as usize] = change,
                    Err(e) => {
                        tracing::warn!(match_id = %rec.id, player = %p.id, error = %e, "rating not applied");
                        failed.get_or_insert(e);
                    }
                }
            }
        }
        for p in registered_players(rec) {
            if rated_ids.contains(&p.id.as_str()) {
                continue;
            }
            if let Err(e) = self.count_player(rec, &p.id).await {
                tracing::warn!(match_id = %rec.id, player = %p.id, error = %e, "match not counted");
                failed.get_or_insert(e);
            }
        }
        if failed.is_none() {
            self.settled.insert(&rec.id, &changes);
        }
        (changes, failed)
    }

    /// For the scheduler: settles a finished match this process has not
    /// seen settled (its committing instance may have died before rating
    /// or counting it), and answers each seat's rating change so that its
    /// players can be told: as this process applied it, else read back
    /// when it was applied before.
    ///
    /// # Errors
    /// As [`apply_ratings`](Self::apply_ratings); the match then stays
    /// due, to be tried again.
    pub(in crate::lobby) async fn settle_ratings(
        &self,
        rec: &MatchRecord,
    ) -> Result<Vec<Option<RatingChange>>, Error> {
        if rec.game.phase() != Phase::MatchOver || registered_players(rec).next().is_none() {
            return Ok(vec![None; rec.seats.len()]);
        }
        if let Some(changes) = self.settled.changes(&rec.id) {
            return Ok(changes);
        }
        self.apply_ratings(rec).await
    }

    /// Where the registered players of `rec` registered from, per seat
    /// (`None` for house bots, players no longer stored and players
    /// registered before addresses were kept).
    async fn origins(&self, rec: &MatchRecord) -> Result<Vec<Option<String>>, Error> {
        let mut origins = Vec::with_capacity(rec.seats.len());
        for s in &rec.seats {
            let origin = match s.player.as_ref().filter(|p| !p.is_house()) {
                Some(p) => self.load_player(&p.id).await?.and_then(|(_, r)| r.origin),
                None => None,
            };
            origins.push(origin);
        }
        Ok(origins)
    }

    /// Counts match `rec` in player `id`'s `matches_played`, once (a player
    /// no longer stored is left alone).
    async fn count_player(&self, rec: &MatchRecord, id: &str) -> Result<(), Error> {
        let counted = update(
            self.store(),
            Doc::Player,
            id,
            |_| None,
            || Error::PlayerNotFound,
            |player: &mut PlayerRecord| {
                Ok(match player.count_match(&rec.id, rec.created_ms) {
                    true => Step::Write(()),
                    false => Step::Keep(()),
                })
            },
        )
        .await;
        match counted {
            Ok(_) | Err(Error::PlayerNotFound) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// One player's update for match `rec`, by compare-and-set on its
    /// record; the change already made if the match is listed there as
    /// applied. What counts is decided by [`fair::counted_games`]; a match
    /// that leaves the rating as it was is still applied (listed, counted
    /// in `matches_played`, in the history with why). The history entry
    /// is written first (in place of any entry for the same match), so an
    /// applied match always has its entry.
    async fn rate_player(
        &self,
        rec: &MatchRecord,
        (rated, seat): (&RatedMatch, Seat),
        origins: &fair::Origins,
        id: &str,
    ) -> Result<Option<RatingChange>, Error> {
        let pool = rated.pool.as_str();
        let index = leaderboard_index(pool);
        let applied = update_async(
            self.store(),
            Doc::Player,
            id,
            |_| None,
            || Error::PlayerNotFound,
            |mut player: PlayerRecord| async move {
                let mine = player.origin.clone();
                let standing = player.ratings.entry(pool.to_string()).or_default();
                if standing.has_applied(&rec.id, rec.created_ms) {
                    return Ok((player, Step::Keep(None)));
                }
                let was_listed = standing.games > 0;
                let origins = (mine.as_deref(), origins);
                let entry = fair::apply(standing, rec, (rated, seat), origins, now_ms());
                standing.mark_applied(&rec.id, rec.created_ms);
                player.matches_played += 1;
                self.record_history(id, pool, entry.clone()).await?;
                Ok((player, Step::Write(Some((entry, was_listed)))))
            },
        )
        .await;
        let updated = match applied {
            Ok(updated) => updated,
            Err(Error::PlayerNotFound) => return Ok(None),
            Err(e) => return Err(e),
        };
        let Some((entry, was_listed)) = updated.answer else {
            // Applied before: make sure the leaderboard shows it (the
            // applying instance may have stopped short of that).
            if updated
                .record
                .ratings
                .get(pool)
                .is_some_and(|r| r.games > 0)
            {
                let rating = updated.record.rating_in(pool);
                self.store()
                    .index_add(&index, &leaderboard_entry(&rating, id))
                    .await?;
            }
            let history = self.rating_history(id).await?.1;
            return Ok(history.entry(pool, &rec.id).map(|e| e.change(pool)));
        };
        if let Some(why) = entry.unrated {
            tracing::info!(match_id = %rec.id, player = id, pool, unrated = ?why, "rating left as it was");
            return Ok(Some(entry.change(pool)));
        }
        let (before, after) = (entry.before, entry.after);
        if was_listed {
            self.store()
                .index_remove(&index, &leaderboard_entry(&before, id))
                .await?;
        }
        self.store()
            .index_add(&index, &leaderboard_entry(&after, id))
            .await?;
        tracing::info!(match_id = %rec.id, player = id, pool, before = before.rating, after = after.rating, "rating applied");
        Ok(Some(entry.change(pool)))
    }

    /// Player `id`'s rating history and its version (0 and empty when it
    /// has none).
    ///
    /// # Errors
    /// `StoreUnavailable`; `Internal` if it does not parse.
    pub async fn rating_history(&self, id: &str) -> Result<(u64, RatingHistory), Error> {
        match self.store().get(Doc::RatingHistory, id).await? {
            Some(snap) => Ok((snap.version, records::decode(&snap.state)?)),
            None => Ok((0, RatingHistory::default())),
        }
    }

    /// Writes `entry` into player `id`'s history of `pool`.
    async fn record_history(&self, id: &str, pool: &str, entry: RatingEntry) -> Result<(), Error> {
        upsert(
            self.store(),
            Doc::RatingHistory,
            id,
            |_| None,
            |history: &mut RatingHistory| {
                history.record(pool, entry.clone());
                Ok(Step::Write(()))
            },
        )
        .await
        .map(drop)
    }
}

impl Lobby {
    /// Applies match `id` if it is a finished rated match, once (calling it
    /// again, from any instance, changes nothing): what it changed per seat
    /// (`None` for house bots, players no longer stored, and matches too
    /// old to tell).
    ///
    /// # Errors
    /// `MatchNotFound`; `Busy` after lost races; `StoreUnavailable`.
    pub async fn apply_match_ratings(&self, id: &str) -> Result<Vec<Option<RatingChange>>, Error> {
        let rec = self.svc.record(id).await?;
        self.core.apply_ratings(&rec).await
    }
}
