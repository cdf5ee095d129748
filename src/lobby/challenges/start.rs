//! The start of a fully accepted challenge's match.
//!
//! The write that records the last acceptance marks the challenge
//! `starting`; the match is then created under the challenge's id
//! through the match service's ordinary create path, and the challenge
//! marked `started`. The writer of the last acceptance starts it at
//! once; if it fails or stops half-way, the lobby's housekeeping finds
//! its note and starts it (see `lobby/recovery.rs`). Several starters
//! may race: creation under a fixed id happens once (and that creation
//! tells the players), and marking `started` is an idempotent update.

use crate::lobby::Lobby;
use crate::lobby::start::Promise;
use crate::lobby::store::Doc;
use crate::lobby::update::Step;
use crate::service::{Error, NewMatch, NewSeat, SeatKind, clock_now_ms};

use super::record::{ChallengeRecord, ChallengeStatus};

impl Lobby {
    /// Starts the match of `rec`, a challenge every invited player
    /// accepted (found `starting`): creates the match under the
    /// challenge's id, with the challenge's rules, seed, clock and rating,
    /// a remote seat for each player and a house-bot seat for each bot
    /// seat (each seat's bot stands in on a timeout), then marks the
    /// challenge `started`. Safe to repeat and to race: the match is
    /// created once, and its creation tells its players. Returns the
    /// challenge as stored afterwards.
    ///
    /// # Errors
    /// Whatever creating the match returns (the challenge stays
    /// `starting`, and its next reader tries again); `ChallengeNotFound`
    /// if it vanished; `Busy` after lost races; `StoreUnavailable`.
    pub(in crate::lobby) async fn start_accepted(
        &self,
        rec: &ChallengeRecord,
    ) -> Result<ChallengeRecord, Error> {
        let seats = rec
            .seats
            .iter()
            .map(|s| NewSeat {
                kind: if s.player.is_some() {
                    SeatKind::Remote
                } else {
                    SeatKind::Bot
                },
                bot: Some(s.bot.clone()),
                name: None,
                player: s.player.as_ref().map(|p| p.id.clone()),
                token_sha256: None,
            })
            .collect();
        let req = NewMatch {
            rules: rec.rules.clone(),
            seats: Some(seats),
            seed: Some(rec.seed.clone()),
            auto_deal: rec.auto_deal,
            move_timeout_ms: rec.move_timeout_ms,
            on_timeout: rec.on_timeout,
            id: Some(rec.id.clone()),
            rated: rec.rated,
        };
        let ttl = |rec: &ChallengeRecord| Some(rec.ttl(clock_now_ms()));
        let promise = Promise {
            doc: Doc::Challenge,
            id: &rec.id,
            ttl: &ttl,
            missing: || Error::ChallengeNotFound,
        };
        let marked = self
            .start_pending(req, promise, |rec: &mut ChallengeRecord| {
                if rec.status != ChallengeStatus::Starting {
                    return Ok(Step::Keep(()));
                }
                rec.status = ChallengeStatus::Started;
                Ok(Step::Write(()))
            })
            .await?;
        Ok(marked.record)
    }
}
