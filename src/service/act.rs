//! Acting for a seat: the compare-and-set retry loop and idempotent retries.
//!
//! With an idempotency key the store remembers, beside the answer, a
//! fingerprint of the request (SHA-256 of the action and its guards): a
//! retry with the same key and the same request gets the first answer, the
//! same key with another request is refused with
//! [`Error::IdempotencyKeyReused`] and changes nothing.

use std::sync::Arc;

use sha2::{Digest, Sha256};

pub use super::act_kind::Act;
use super::clock::now_ms;
use super::compact::Actor;
use super::persist::{COMMIT_ATTEMPTS, Scheduling};
use super::record::{MatchRecord, MatchView};
use super::{Error, Service, driver, endings, events, metrics};
use crate::rules::{Action, Seat};
use crate::store::CommitOutcome;

/// What an action answers.
#[derive(Clone, Debug)]
pub enum Acted {
    /// The action was applied: the caller's new view.
    Applied(Box<MatchView>),
    /// A retry with the seat's latest idempotency key (and the same
    /// request): the first answer, as the store remembered it (the
    /// serialized view, sent again unchanged so that a retry gets exactly
    /// the first answer's bytes).
    Replayed(String),
}

/// An action request with its optional guards.
#[derive(Clone, Debug)]
pub struct ActRequest {
    /// What to do.
    pub act: Act,
    /// The seat the client believes it holds; must match the token's.
    pub seat: Option<Seat>,
    /// Act only if the match is still at this version.
    pub expected_version: Option<u64>,
    /// A retry of the seat's latest action with the same key gets the first
    /// answer; only the seat's latest key is remembered.
    pub idempotency_key: Option<String>,
}

impl ActRequest {
    /// What a retry must repeat to be the same request: a hash of the act,
    /// the seat claimed and the version expected (however they were sent).
    fn fingerprint(&self) -> Result<String, Error> {
        let act = match self.act {
            Act::Action(a) => serde_json::to_string(&a)?,
            Act::Resign => "\"resign\"".to_string(),
            Act::End(e) => serde_json::to_string(&e)?,
        };
        let canonical = format!("{act}|{:?}|{:?}", self.seat, self.expected_version);
        Ok(hex::encode(&Sha256::digest(canonical.as_bytes())[..16]))
    }
}

/// The answer remembered with a key: the request's fingerprint, a newline,
/// and the answer.
fn remembered(fingerprint: &str, answer: &str) -> String {
    format!("{fingerprint}\n{answer}")
}

/// What was remembered with the first answer, for a retry of the request
/// of `fingerprint`.
///
/// # Errors
/// [`Error::IdempotencyKeyReused`] when the key was used for another request.
/// An answer remembered without a fingerprint (a JSON object, as servers
/// stored them before) is taken for a retry.
fn same_request(stored: String, fingerprint: &str) -> Result<String, Error> {
    match stored.split_once('\n') {
        Some((f, answer)) if !f.starts_with('{') => {
            if f == fingerprint {
                Ok(answer.to_string())
            } else {
                Err(Error::IdempotencyKeyReused)
            }
        }
        _ => Ok(stored),
    }
}

/// What one attempt at an action came to.
enum Attempt {
    /// It is done: applied, or replayed for a retry.
    Done(Acted),
    /// Another write came first; try again on the new state.
    Lost,
}

impl Service {
    /// Applies a seat's action and returns its new view (or, for a retry,
    /// the first answer).
    ///
    /// The caller is authenticated first, on the match as stored: a
    /// refused caller never makes the server play the moves that are due
    /// (house bots, deals, clocks), so a refused request writes nothing.
    ///
    /// # Errors
    /// Every rule and guard failure of the API, and
    /// [`Error::IdempotencyKeyReused`]; nothing changes on error.
    pub async fn act(
        &self,
        id: &str,
        token: Option<&str>,
        req: ActRequest,
    ) -> Result<Acted, Error> {
        let stored = self.load(id).await?;
        let seat = self.require_caller(&stored, token).await?;
        if let Some(claimed) = req.seat
            && claimed != seat
        {
            return Err(Error::Forbidden(format!(
                "this token acts for seat {seat}, not seat {claimed}"
            )));
        }
        let idem_key = req
            .idempotency_key
            .as_ref()
            .map(|k| format!("seat{seat}:{k}"));
        let fingerprint = match &idem_key {
            Some(_) => req.fingerprint()?,
            None => String::new(),
        };
        let mut loaded = Some(stored);
        for _ in 0..COMMIT_ATTEMPTS {
            let rec = match loaded.take() {
                Some(rec) => self.bring_current(rec, Scheduling::Write).await?,
                None => self.load_current(id).await?,
            };
            let keyed = idem_key.as_deref().map(|k| (k, fingerprint.as_str()));
            if let Attempt::Done(acted) = self.attempt(rec, seat, &req, keyed).await? {
                return Ok(acted);
            }
        }
        // Without a version guard the client asked for no particular state:
        // losing every race is a busy match, not a version conflict.
        metrics::metrics().limit_hit("commit_races_lost");
        Err(Error::Busy(format!(
            "the match changed under {COMMIT_ATTEMPTS} attempts in a row; nothing was done, retry"
        )))
    }

    /// One attempt at `req` for `seat` on `rec`, the match as it stands
    /// now (with its due steps played); `keyed` is the idempotency key and
    /// the request's fingerprint, if the request has a key.
    async fn attempt(
        &self,
        rec: Arc<MatchRecord>,
        seat: Seat,
        req: &ActRequest,
        keyed: Option<(&str, &str)>,
    ) -> Result<Attempt, Error> {
        let id = rec.id.clone();
        let id = id.as_str();
        if let Some((key, fingerprint)) = keyed
            && let Some(resp) = self.store.idempotent_response(id, key).await?
        {
            let answer = same_request(resp, fingerprint)?;
            let replayed = self.remembered_answer(id, seat, answer).await?;
            return Ok(Attempt::Done(Acted::Replayed(replayed)));
        }
        if let Some(expected) = req.expected_version
            && expected != rec.version
        {
            return Err(Error::VersionConflict {
                expected,
                current: rec.version,
            });
        }
        if req.act == Act::Action(Action::Deal)
            && driver::deal_refused(&rec, self.limits.max_hands_per_match)
        {
            return Err(self.too_large());
        }
        if let Act::End(ending) = req.act {
            endings::allowed(&rec, seat, ending, &self.limits)?;
        }
        let before = rec.version;
        let mut rec = Arc::unwrap_or_clone(rec);
        let mut events = Vec::new();
        let mut engine_events = Vec::new();
        rec.game.perform(req.act.by(seat), &mut engine_events)?;
        rec.note(req.act.by(seat), Actor::Client);
        rec.version += 1;
        events::push_step(&mut rec, &mut events, None, engine_events);
        rec.deadline_ms = None;
        let driver::Advanced {
            rec,
            events,
            applied: house,
        } = self.driver.advance(rec, events, now_ms()).await?;
        let view = rec.view(Some(seat));
        // The answer is kept for a retry only with a key.
        let body = match keyed {
            Some((_, fingerprint)) => Some(remembered(
                fingerprint,
                &Self::answer_to_remember(&rec, &view)?,
            )),
            None => None,
        };
        let idempotency = keyed.map(|(k, _)| k).zip(body.as_deref());
        let rec = Arc::new(rec);
        match self.save(&rec, before, &events, idempotency).await? {
            CommitOutcome::Committed { .. } => {
                metrics::metrics().action(req.act.kind(), "client");
                house.record();
                tracing::info!(match_id = %id, seat, act = ?req.act, version = rec.version, "action applied");
                Ok(Attempt::Done(Acted::Applied(Box::new(view))))
            }
            CommitOutcome::Duplicate { response } => {
                let answer = same_request(response, keyed.map_or("", |(_, f)| f))?;
                let replayed = self.remembered_answer(id, seat, answer).await?;
                Ok(Attempt::Done(Acted::Replayed(replayed)))
            }
            CommitOutcome::Conflict { current_version } => match req.expected_version {
                Some(expected) => Err(Error::VersionConflict {
                    expected,
                    current: current_version,
                }),
                None => Ok(Attempt::Lost),
            },
        }
    }

    /// The refusal of a deal past the hand cap.
    fn too_large(&self) -> Error {
        metrics::metrics().limit_hit("match_too_large");
        Error::MatchTooLarge(format!(
            "a match deals at most {} hands; this one can still be read but not dealt again",
            self.limits.max_hands_per_match
        ))
    }
}
