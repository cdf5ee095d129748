//! Reading challenges: one challenge as one of its players sees it, and
//! a player's pending challenges, incoming and outgoing.
//!
//! A read only reads: a pending challenge past its expiry reads as
//! expired (the housekeeping writes it so and tells its players), and
//! one left `starting` reads so until the housekeeping starts its match.
//! A list walks the player's index in order of creation and shows only
//! what is still pending, a page at a time with a cursor per direction
//! (never cut silently); it skips the entries of challenges closed since
//! (their removal is best effort).

use crate::lobby::Lobby;
use crate::service::{Error, clock_now_ms};

use super::record::{ChallengeStatus, player_index};
use super::view::{ChallengeList, ChallengeView};

/// Most challenges `GET /v1/challenges` lists in each direction per page
/// (with the caps of `lobby/pending.rs`, every pending one fits).
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
        let rec = self.peek_challenge(id).await?;
        if rec.seat_of(&me.id).is_none() {
            return Err(Error::Forbidden(
                "this player is not in this challenge".into(),
            ));
        }
        Ok(rec.view(clock_now_ms()))
    }

    /// The caller's pending challenges: those it is invited to and those it
    /// made, oldest first, at most [`LIST_MAX`] each, after the cursors of
    /// a previous list (each list's `next` cursor is `None` once it is
    /// shown to its end).
    ///
    /// # Errors
    /// `Unauthorized`; `InvalidRequest` for a cursor no list gave;
    /// `StoreUnavailable`.
    pub async fn challenges_of(
        &self,
        key: &str,
        incoming_after: Option<&str>,
        outgoing_after: Option<&str>,
    ) -> Result<ChallengeList, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        for cursor in [incoming_after, outgoing_after].into_iter().flatten() {
            check_cursor(cursor)?;
        }
        let (incoming, next_incoming) = self
            .pending_challenges(&player_index("in", &me.id), incoming_after)
            .await?;
        let (outgoing, next_outgoing) = self
            .pending_challenges(&player_index("out", &me.id), outgoing_after)
            .await?;
        Ok(ChallengeList {
            incoming,
            outgoing,
            next_incoming,
            next_outgoing,
        })
    }

    /// The first [`LIST_MAX`] pending challenges of a player's index
    /// after `after`, reading at most [`LIST_SCAN`] entries, and the
    /// cursor to go on from (`None` at the index's end); the entries of
    /// closed challenges a failed removal left behind are skipped.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    async fn pending_challenges(
        &self,
        index: &str,
        after: Option<&str>,
    ) -> Result<(Vec<ChallengeView>, Option<String>), Error> {
        let store = self.store();
        let mut out = Vec::new();
        let mut cursor = after.map(str::to_owned);
        let mut scanned = 0;
        while scanned < LIST_SCAN {
            let entries = store.index_page(index, cursor.as_deref(), LIST_MAX).await?;
            if entries.is_empty() {
                return Ok((out, None));
            }
            scanned += entries.len();
            for entry in entries {
                if out.len() == LIST_MAX {
                    return Ok((out, cursor));
                }
                let id = entry.rsplit(':').next().unwrap_or_default();
                let rec = match self.peek_challenge(id).await {
                    Ok(rec) => Some(rec),
                    Err(Error::ChallengeNotFound) => None,
                    Err(e) => return Err(e),
                };
                let now = clock_now_ms();
                if let Some(rec) = rec.filter(|r| r.status_at(now) == ChallengeStatus::Pending) {
                    out.push(rec.view(now));
                }
                cursor = Some(entry);
            }
        }
        Ok((out, cursor))
    }
}

/// A list cursor as lists give them (`<15 digits>:<challenge id>`).
///
/// # Errors
/// `InvalidRequest` for anything else.
fn check_cursor(cursor: &str) -> Result<(), Error> {
    let fits = cursor.len() <= 64
        && cursor
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase() || b == b':');
    if fits {
        Ok(())
    } else {
        Err(Error::InvalidRequest(
            "a list cursor is the `next_incoming` or `next_outgoing` of a previous list".into(),
        ))
    }
}
