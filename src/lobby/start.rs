//! Starting the match that a table, a challenge or a queue group
//! promised: the one routine all three use.
//!
//! A promise is a record (table, challenge, queue pool) that says a match
//! is to start under a known id with known seats. Whoever finds the
//! promise due (the last joiner, the last to accept, the queue pass, or a
//! later reader when that one failed half-way) calls
//! [`Lobby::create_promised`]: the match is created under its id through
//! the ordinary create path, once (a second creation finds it there and
//! changes nothing). A table or a challenge then marks its record started
//! by compare-and-set, both steps in [`Lobby::start_pending`]; the queue
//! settles the group's tickets before it drops the group from its pool.
//! Every step can be repeated by anyone, so a crash between them is
//! finished by the next caller and never doubled.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Lobby;
use super::store::Doc;
use super::update::{Step, Updated, update};
use crate::service::{Error, NewMatch};

/// The promise's record, for marking it started.
pub struct Promise<'a, T> {
    /// Its kind.
    pub doc: Doc,
    /// Its id.
    pub id: &'a str,
    /// How long it lives once written.
    pub ttl: &'a (dyn Fn(&T) -> Option<Duration> + Sync),
    /// The error when it no longer exists.
    pub missing: fn() -> Error,
}

impl Lobby {
    /// Creates `req`'s match under its id (once, whoever calls), then
    /// marks the promise started with `mark`, which decides from the
    /// record as stored (and writes nothing when it is already marked).
    ///
    /// # Errors
    /// The creation's errors; the promise's missing error; `Busy`;
    /// `StoreUnavailable`.
    pub(in crate::lobby) async fn start_pending<T, R>(
        &self,
        req: NewMatch,
        promise: Promise<'_, T>,
        mark: impl FnMut(&mut T) -> Result<Step<R>, Error>,
    ) -> Result<Updated<T, R>, Error>
    where
        T: Serialize + DeserializeOwned,
    {
        self.create_promised(req, promise.doc).await?;
        update(
            self.store(),
            promise.doc,
            promise.id,
            promise.ttl,
            promise.missing,
            mark,
        )
        .await
    }

    /// Creates `req`'s match under its id, once whoever calls: a match
    /// already there under that id counts as started, and nothing
    /// changes. `by` names the kind of promise, for the log.
    ///
    /// # Errors
    /// The creation's errors (nothing was created then).
    pub(in crate::lobby) async fn create_promised(
        &self,
        req: NewMatch,
        by: Doc,
    ) -> Result<(), Error> {
        let id = req.id.clone().unwrap_or_default();
        if self.svc.create_at(req).await?.is_some() {
            tracing::info!(match_id = %id, promise = by.name(), "promised match started");
        }
        Ok(())
    }
}
