//! Answers to a challenge: an invited player accepts or declines, the
//! challenger cancels.
//!
//! An answer is one compare-and-set update of the challenge (through
//! [`Lobby::change_challenge`], which first settles it): the record
//! decides whether the answer is allowed and what it changes (see
//! [`ChallengeRecord::answer`]), so two acceptances racing on two
//! instances cannot both be the last one, and only the write that closes
//! or completes the challenge does what follows. After that write the
//! other players hear the answer, a closed challenge leaves the indexes,
//! and the last acceptance starts the match; a failed start is left to
//! the lobby's housekeeping (an acceptance is noted before it is
//! written: see `lobby/recovery.rs`), and the answer still succeeds.

use crate::lobby::Lobby;
use crate::lobby::records::PlayerEvent;
use crate::lobby::store::Doc;
use crate::lobby::update::Step;
use crate::service::Error;

use super::record::{Answer, ChallengeRecord, ChallengeStatus, check_id};
use super::sweep::Changed;
use super::view::ChallengeView;

impl Lobby {
    /// Accepts a challenge as an invited player; the last acceptance
    /// starts the match.
    ///
    /// # Errors
    /// As [`answer_challenge`](Self::answer_challenge).
    pub async fn accept_challenge(&self, id: &str, key: &str) -> Result<ChallengeView, Error> {
        self.answer_challenge(id, key, Answer::Accept).await
    }

    /// Declines a challenge as an invited player: it is closed.
    ///
    /// # Errors
    /// As [`answer_challenge`](Self::answer_challenge).
    pub async fn decline_challenge(&self, id: &str, key: &str) -> Result<ChallengeView, Error> {
        self.answer_challenge(id, key, Answer::Decline).await
    }

    /// Withdraws a challenge as its challenger.
    ///
    /// # Errors
    /// As [`answer_challenge`](Self::answer_challenge).
    pub async fn cancel_challenge(&self, id: &str, key: &str) -> Result<ChallengeView, Error> {
        self.answer_challenge(id, key, Answer::Cancel).await
    }

    /// One answer to a challenge, written by compare-and-set.
    ///
    /// # Errors
    /// `Unauthorized`; `Forbidden` for a player not invited (accept,
    /// decline) or not the challenger (cancel); `ChallengeNotFound`;
    /// `ChallengeClosed` once declined, cancelled or (but for an
    /// acceptance already made) started; `ChallengeExpired`; `Busy` after
    /// lost races.
    async fn answer_challenge(
        &self,
        id: &str,
        key: &str,
        answer: Answer,
    ) -> Result<ChallengeView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        check_id(id)?;
        // An acceptance may be the last: noted first, so that a start this
        // writer does not finish is finished by the housekeeping.
        let note = match answer {
            Answer::Accept => Some(self.note_start(Doc::Challenge, id).await?),
            Answer::Decline | Answer::Cancel => None,
        };
        let changed = self
            .change_challenge(id, |rec, now| {
                Ok(if rec.answer(&me.id, answer, now)? {
                    Step::Write(true)
                } else {
                    Step::Keep(false)
                })
            })
            .await;
        let outcome = match changed {
            Ok(changed) => self.after_answer(changed, &me.id, answer).await,
            Err(e) => Err(e),
        };
        if let Some(note) = &note {
            let left = matches!(&outcome, Ok(v) if v.status == ChallengeStatus::Starting);
            if !left {
                self.unnote_start(note).await;
            }
        }
        outcome
    }

    /// The answer's effects once written (or judged against the settled
    /// challenge), and the challenge as the caller sees it.
    async fn after_answer(
        &self,
        changed: Changed<bool>,
        me: &str,
        answer: Answer,
    ) -> Result<ChallengeView, Error> {
        let Changed {
            mut record,
            answer: written,
            now,
        } = changed;
        match written {
            Some(true) => self.answered(&mut record, me, answer).await,
            Some(false) => {}
            // Expired or started first: the answer is judged against that
            // (refused, or an acceptance already made).
            None => {
                record.check_answer(me, answer, now)?;
            }
        }
        Ok(record.view(now))
    }

    /// After the write of `player`'s `answer` to `rec`: the other players
    /// hear it, a closed challenge leaves the indexes, and the last
    /// acceptance starts the match (a failed start is logged and left to
    /// the housekeeping; `rec` is the started challenge otherwise).
    async fn answered(&self, rec: &mut ChallengeRecord, player: &str, answer: Answer) {
        let id = rec.id.clone();
        tracing::info!(challenge_id = %id, player = %player, ?answer, status = ?rec.status, "challenge answered");
        let event = match answer {
            Answer::Accept => PlayerEvent::ChallengeAccepted {
                challenge_id: id.clone(),
                player: player.to_string(),
                waiting_for: rec.waiting_for(),
            },
            Answer::Decline => PlayerEvent::ChallengeDeclined {
                challenge_id: id.clone(),
                player: player.to_string(),
            },
            Answer::Cancel => PlayerEvent::ChallengeCancelled {
                challenge_id: id.clone(),
            },
        };
        self.tell_challenged(rec, Some(player), &event).await;
        if rec.status != ChallengeStatus::Pending {
            self.unlist_challenge(rec).await;
        }
        if rec.status == ChallengeStatus::Starting {
            match self.start_accepted(rec).await {
                Ok(started) => *rec = started,
                Err(e) => tracing::warn!(challenge_id = %id, error = %e, "match start deferred"),
            }
        }
    }
}
