//! Where a challenge is announced outside its own record: the indexes
//! that list it (the pending index the sweep walks in order of expiry,
//! each player's incoming or outgoing index that `GET /v1/challenges`
//! reads) and its players' event streams.
//!
//! Listing is part of making a challenge, so its failure is the
//! creation's (the slots it took in its players' pending lists are given
//! back when it closes, with its index entries). Taking a closed challenge out of the indexes and telling
//! its players come after the write that closed it, so their failures
//! are logged and never undo that write: readers of an index skip (and
//! remove) the entries of closed challenges, and an event is best effort
//! like every player event.

use crate::lobby::Lobby;
use crate::lobby::records::PlayerEvent;
use crate::service::Error;

use super::record::{ChallengeRecord, PENDING_INDEX};

impl Lobby {
    /// Adds a new challenge to the pending index and to each of its
    /// players' indexes.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub(super) async fn list_challenge(&self, rec: &ChallengeRecord) -> Result<(), Error> {
        let store = self.store();
        store.index_add(PENDING_INDEX, &rec.pending_entry()).await?;
        for index in rec.player_indexes() {
            store.index_add(&index, &rec.player_entry()).await?;
        }
        Ok(())
    }

    /// Takes a challenge no longer pending out of the indexes (a failure
    /// is logged: readers skip closed entries and remove them) and gives
    /// back the slots it held in its players' pending lists (a failure is
    /// logged: they free themselves at its expiry).
    pub(super) async fn unlist_challenge(&self, rec: &ChallengeRecord) {
        let inv = rec.invitation();
        self.core
            .give_back_slots(Some(inv.maker), &inv.to, &inv.slot.id)
            .await;
        let store = self.store();
        let mut removed = store
            .index_remove(PENDING_INDEX, &rec.pending_entry())
            .await;
        for index in rec.player_indexes() {
            if removed.is_ok() {
                removed = store.index_remove(&index, &rec.player_entry()).await;
            }
        }
        if let Err(e) = removed {
            tracing::warn!(challenge_id = %rec.id, error = %e, "challenge index not updated");
        }
    }

    /// Tells every player of `rec` (but `except`).
    pub(super) async fn tell_challenged(
        &self,
        rec: &ChallengeRecord,
        except: Option<&str>,
        event: &PlayerEvent,
    ) {
        for p in rec.players() {
            if Some(p.id.as_str()) != except {
                self.core.publish(&p.id, event).await;
            }
        }
    }
}
