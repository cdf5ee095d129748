//! Housekeeping that finishes what a writer left half-done, so that no
//! read ever has to write.
//!
//! **Starts.** A join that may fill a table, and an acceptance that may
//! be a challenge's last, first note the record in the `starting` index
//! (`<ms>:<doc>:<id>`, ordered by time). The writer removes its note once
//! it knows the outcome (the record did not become `starting`, or its
//! match started). A note still there [`GRACE_MS`] later belongs to a
//! writer that stopped or failed half-way: each instance's housekeeping
//! then starts the record's match (creation under the record's id happens
//! once, whoever races) and drops the note. A note whose record never
//! became `starting` (the write lost, or never made) is dropped after
//! [`STALE_MS`].
//!
//! **Listings.** A public table leaves the lobby's listing when its match
//! starts; one that expired (or whose removal failed) is only skipped by
//! readers. The housekeeping walks the listing a page per tick and drops
//! the entries of tables no longer open.

use crate::lobby::Lobby;
use crate::lobby::store::Doc;
use crate::service::{Error, clock_now_ms};

use super::challenges::ChallengeStatus;
use super::tables::TableStatus;

/// The index of notes of starts that may be left half-done.
pub(in crate::lobby) const STARTING_INDEX: &str = "starting";

/// How long a note is left to its writer before the housekeeping acts.
pub const GRACE_MS: u64 = 2_000;

/// How long a note of a record that is not `starting` is kept.
const STALE_MS: u64 = 60_000;

/// Notes one housekeeping tick looks at, at most.
const BATCH: usize = 64;

/// Listing entries one housekeeping tick looks at, at most.
const LISTING_PAGE: usize = 64;

/// What became of a noted start.
enum Noted {
    /// Nothing is left to do: the match started, or the record is gone or
    /// closed.
    Settled,
    /// The record is not (yet) `starting`.
    Waiting,
}

impl Lobby {
    /// Notes that the write about to be made to `doc` `id` may mark it
    /// `starting`; returns the note, for [`Lobby::unnote_start`].
    ///
    /// # Errors
    /// `StoreUnavailable` (the write must not be made then).
    pub(in crate::lobby) async fn note_start(&self, doc: Doc, id: &str) -> Result<String, Error> {
        let note = format!("{:015}:{}:{id}", clock_now_ms(), doc.name());
        self.store().index_add(STARTING_INDEX, &note).await?;
        Ok(note)
    }

    /// Drops `note` once its writer knows the outcome (best effort: the
    /// housekeeping drops a note left behind).
    pub(in crate::lobby) async fn unnote_start(&self, note: &str) {
        if let Err(e) = self.store().index_remove(STARTING_INDEX, note).await {
            tracing::debug!(error = %e, "start note left to the housekeeping");
        }
    }

    /// Starts the matches of the noted records a writer left `starting`
    /// for over [`GRACE_MS`], and drops the notes nothing is left to do
    /// for; returns how many notes it dropped.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub async fn finish_starts(&self) -> Result<usize, Error> {
        let now = clock_now_ms();
        let mut dropped = 0;
        for note in self.store().index_page(STARTING_INDEX, None, BATCH).await? {
            let mut parts = note.splitn(3, ':');
            let (at, doc, id) = (parts.next(), parts.next(), parts.next());
            let at = at.and_then(|a| a.parse::<u64>().ok()).unwrap_or(0);
            if at.saturating_add(GRACE_MS) > now {
                break;
            }
            let outcome = match (doc, id) {
                (Some("table"), Some(id)) => self.finish_table_start(id).await,
                (Some("challenge"), Some(id)) => self.finish_challenge_start(id).await,
                _ => Ok(Noted::Settled),
            };
            let drop = match outcome {
                Ok(Noted::Settled) => true,
                Ok(Noted::Waiting) => at.saturating_add(STALE_MS) <= now,
                Err(e) => {
                    tracing::warn!(note = %note, error = %e, "left-over start failed again");
                    false
                }
            };
            if drop {
                self.store().index_remove(STARTING_INDEX, &note).await?;
                dropped += 1;
            }
        }
        Ok(dropped)
    }

    /// Starts table `id`'s match when it was left `starting`.
    async fn finish_table_start(&self, id: &str) -> Result<Noted, Error> {
        let table = match self.load_table(id).await {
            Ok((_, t)) => t,
            Err(Error::TableNotFound) => return Ok(Noted::Settled),
            Err(e) => return Err(e),
        };
        match table.status {
            TableStatus::Starting => {
                tracing::info!(table_id = %id, "starting a table's match left half-done");
                self.start(&table).await?;
                Ok(Noted::Settled)
            }
            TableStatus::Open => Ok(Noted::Waiting),
            _ => Ok(Noted::Settled),
        }
    }

    /// Starts challenge `id`'s match when it was left `starting`.
    async fn finish_challenge_start(&self, id: &str) -> Result<Noted, Error> {
        let rec = match self.peek_challenge(id).await {
            Ok(c) => c,
            Err(Error::ChallengeNotFound) => return Ok(Noted::Settled),
            Err(e) => return Err(e),
        };
        match rec.status {
            ChallengeStatus::Starting => {
                tracing::info!(challenge_id = %id, "starting a challenge's match left half-done");
                self.start_accepted(&rec).await?;
                Ok(Noted::Settled)
            }
            ChallengeStatus::Pending => Ok(Noted::Waiting),
            _ => Ok(Noted::Settled),
        }
    }

    /// Drops, from one page of the public listing after `after`, the
    /// entries of tables no longer open; returns where the next page
    /// starts (`None`: back to the beginning).
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub async fn prune_listing(&self, after: Option<String>) -> Result<Option<String>, Error> {
        let store = self.store();
        let now = clock_now_ms();
        let entries = store
            .index_page("all", after.as_deref(), LISTING_PAGE)
            .await?;
        let next = (entries.len() == LISTING_PAGE)
            .then(|| entries.last().cloned())
            .flatten();
        for entry in entries {
            let id = entry.rsplit(':').next().unwrap_or_default();
            let indexes = match self.load_table(id).await {
                Ok((_, t)) if t.status_at(now) == TableStatus::Open => continue,
                Ok((_, t)) => super::tables::indexes(&t).to_vec(),
                Err(Error::TableNotFound) => super::tables::every_index(),
                Err(e) => return Err(e),
            };
            for index in indexes {
                store.index_remove(&index, &entry).await?;
            }
        }
        Ok(next)
    }
}
