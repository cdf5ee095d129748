//! Conditional reads: a seat's view, legal moves or record only when the
//! client's copy is stale. A read is made for one match version and one
//! viewer; a client that still holds that representation (its validator,
//! an HTTP `ETag`) gets [`Conditional::Unchanged`] after one load of the
//! match, without the view being built, the hint searched or anything
//! serialized: cheap polling.

use std::sync::Arc;

use super::reads::LegalMoves;
use super::record::{MatchRecord, MatchView};
use super::{Error, Service};
use crate::rules::Seat;
use crate::rules::view::HistoryView;

/// What a representation was made from: the match version and the viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The match version.
    pub version: u64,
    /// The viewer's seat; `None` for a spectator.
    pub seat: Option<Seat>,
}

/// The answer to a conditional read.
#[derive(Clone, Debug)]
pub enum Conditional<T> {
    /// The client's copy, made for this tag, is current.
    Unchanged(Tag),
    /// The representation for this tag.
    Changed(Tag, T),
}

impl Service {
    /// The match and the tag of what the caller of `token` sees of it.
    async fn tagged(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Arc<MatchRecord>, Tag), Error> {
        let rec = self.load(id).await?;
        let seat = self.caller_seat(&rec, token).await?;
        let tag = Tag {
            version: rec.version,
            seat,
        };
        Ok((rec, tag))
    }

    /// [`Service::view`], unless `current(tag)` says the client holds it.
    ///
    /// # Errors
    /// As [`Service::view`].
    pub async fn view_unless(
        &self,
        id: &str,
        token: Option<&str>,
        current: impl FnOnce(&Tag) -> bool,
    ) -> Result<Conditional<MatchView>, Error> {
        let (rec, tag) = self.tagged(id, token).await?;
        if current(&tag) {
            return Ok(Conditional::Unchanged(tag));
        }
        Ok(Conditional::Changed(tag, rec.view(tag.seat)))
    }

    /// [`Service::history`], unless `current(tag)` says the client holds it.
    ///
    /// # Errors
    /// As [`Service::history`].
    pub async fn history_unless(
        &self,
        id: &str,
        token: Option<&str>,
        current: impl FnOnce(&Tag) -> bool,
    ) -> Result<Conditional<HistoryView>, Error> {
        let (rec, tag) = self.tagged(id, token).await?;
        if current(&tag) {
            return Ok(Conditional::Unchanged(tag));
        }
        Ok(Conditional::Changed(tag, rec.game.history_view(tag.seat)))
    }

    /// [`Service::legal_moves`], unless `current(tag)` says the client
    /// holds them (then no hint is searched).
    ///
    /// # Errors
    /// As [`Service::legal_moves`].
    pub async fn legal_moves_unless(
        &self,
        id: &str,
        token: Option<&str>,
        hint: Option<&str>,
        current: impl FnOnce(&Tag) -> bool,
    ) -> Result<Conditional<LegalMoves>, Error> {
        let rec = self.load(id).await?;
        let seat = self.require_caller(&rec, token).await?;
        let tag = Tag {
            version: rec.version,
            seat: Some(seat),
        };
        if current(&tag) {
            return Ok(Conditional::Unchanged(tag));
        }
        Ok(Conditional::Changed(
            tag,
            self.legal_moves_of(rec, seat, hint).await?,
        ))
    }
}
