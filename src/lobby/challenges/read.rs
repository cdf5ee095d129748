//! Reading challenges: one challenge as one of its players sees it, and
//! a player's pending challenges, incoming and outgoing.
//!
//! Every read settles what it reads (see `sweep.rs`), so a reader may
//! write: it expires a challenge past its time, or starts one fully
//! accepted. A list walks the player's index in order of creation and
//! shows only what is still pending; the entries of challenges closed
//! since (their removal is best effort) are removed on the way.

use crate::lobby::Lobby;
use crate::service::{Error, clock_now_ms};

use super::record::{ChallengeStatus, player_index};
use super::view::{ChallengeList, ChallengeView};

/// Most challenges `GET /v1/challenges` lists in each direction.
pub const LIST_MAX: usize = 100;

/// Most index entries one list reads (closed challenges are skipped).
const LIST_SCAN: usize = 500;

impl Lobby {
    /// A challenge, as one of its players (whose key is `key`) sees it.
    ///
    /// # Errors
    /// `Unauthorized`; `Forbidden` for a player not in it;
    /// `ChallengeNotFound`; `StoreUnavailable`.
    pub async fn challenge(&self, id: &str, key: &str) -> Result<ChallengeView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let rec = self.load_challenge(id).await?;
        if rec.seat_of(&me.id).is_none() {
            return Err(Error::Forbidden(
                "this player is not in this challenge".into(),
            ));
        }
        Ok(rec.view(clock_now_ms()))
    }

    /// The caller's pending challenges: those it is invited to and those it
    /// made, oldest first, at most [`LIST_MAX`] each.
    ///
    /// # Errors
    /// `Unauthorized`; `StoreUnavailable`.
    pub async fn challenges_of(&self, key: &str) -> Result<ChallengeList, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        Ok(ChallengeList {
            incoming: self.pending_challenges(&player_index("in", &me.id)).await?,
            outgoing: self
                .pending_challenges(&player_index("out", &me.id))
                .await?,
        })
    }

    /// The first [`LIST_MAX`] pending challenges of a player's index,
    /// reading at most [`LIST_SCAN`] entries; the entries of closed
    /// challenges a failed removal left behind are removed on the way.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub(super) async fn pending_challenges(
        &self,
        index: &str,
    ) -> Result<Vec<ChallengeView>, Error> {
        let store = self.store();
        let mut out = Vec::new();
        let mut after: Option<String> = None;
        let mut scanned = 0;
        while out.len() < LIST_MAX && scanned < LIST_SCAN {
            let entries = store.index_page(index, after.as_deref(), LIST_MAX).await?;
            let Some(last) = entries.last().cloned() else {
                break;
            };
            scanned += entries.len();
            for entry in entries {
                let id = entry.rsplit(':').next().unwrap_or_default();
                let rec = match self.load_challenge(id).await {
                    Ok(rec) => Some(rec),
                    Err(Error::ChallengeNotFound) => None,
                    Err(e) => return Err(e),
                };
                let now = clock_now_ms();
                match rec.filter(|r| r.status_at(now) == ChallengeStatus::Pending) {
                    Some(rec) if out.len() < LIST_MAX => out.push(rec.view(now)),
                    Some(_) => {}
                    None => store.index_remove(index, &entry).await?,
                }
            }
            after = Some(last);
        }
        Ok(out)
    }
}
