//! The lobby's one way to change a stored record: read it, change it in
//! memory, write it back by compare-and-set on its version, and start
//! again from a fresh read when another writer came first.
//!
//! Every room (players, tables, challenges, the queue, ratings) writes
//! through [`update`] (or [`upsert`] for a record that may not exist yet),
//! so the attempt budget and the back-off are the same everywhere:
//! [`ATTEMPTS`] reads and writes, the first [`EAGER`] back to back, then
//! each after a random pause of 1 to 8 ms so that writers racing on one
//! hot record (a queue pool, a full table) spread out instead of colliding
//! again. Past the budget nothing was written and the caller gets `Busy`
//! ("retry"), never a half-made change.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::store::{Doc, LobbyStore, StoreError};
use crate::service::{Error, random_bytes};

/// Reads and compare-and-set writes one update may make before it gives
/// up with `Busy`.
pub const ATTEMPTS: usize = 64;

/// Attempts made back to back before each retry waits a little.
const EAGER: usize = 8;

/// What a change decided about its record.
pub enum Step<R> {
    /// Write the changed record, then answer `R`.
    Write(R),
    /// Write nothing (the record needs no change), and answer `R`.
    Keep(R),
}

/// A record as written (or found unchanged) by an update.
pub struct Updated<T, R> {
    /// Its version in the store now.
    pub version: u64,
    /// The record as stored now.
    pub record: T,
    /// What the change answered.
    pub answer: R,
}

/// Reads record `id` of kind `doc`.
///
/// # Errors
/// `missing()` when there is no such record; `StoreUnavailable`;
/// `Internal` if it does not parse.
pub async fn load<T: DeserializeOwned>(
    store: &dyn LobbyStore,
    doc: Doc,
    id: &str,
    missing: impl Fn() -> Error,
) -> Result<(u64, T), Error> {
    match store.get(doc, id).await? {
        Some(snap) => Ok((snap.version, decode(&snap.state)?)),
        None => Err(missing()),
    }
}

/// Changes record `id` of kind `doc` by compare-and-set: `change` is
/// given the record as last stored (and is called again, on a fresher
/// copy, after a lost race), and decides whether to write it; `ttl` says
/// how long the written record lives.
///
/// # Errors
/// `missing()` when there is no such record (also when it vanishes
/// between the read and the write); whatever `change` returns (nothing is
/// written then); `Busy` after [`ATTEMPTS`] lost races;
/// `StoreUnavailable`.
pub async fn update<T, R>(
    store: &dyn LobbyStore,
    doc: Doc,
    id: &str,
    ttl: impl Fn(&T) -> Option<Duration>,
    missing: impl Fn() -> Error,
    change: impl FnMut(&mut T) -> Result<Step<R>, Error>,
) -> Result<Updated<T, R>, Error>
where
    T: Serialize + DeserializeOwned,
{
    attempts(store, doc, id, None, ttl, missing, in_place(change)).await
}

/// [`update`] from `loaded`, record `id` and its version as the caller
/// has just read them: the first attempt changes that copy, so a change
/// that keeps it reads nothing; after a lost race every attempt reads
/// afresh, as [`update`] does.
///
/// # Errors
/// As [`update`].
pub async fn update_from<T, R>(
    store: &dyn LobbyStore,
    doc: Doc,
    id: &str,
    loaded: (u64, T),
    ttl: impl Fn(&T) -> Option<Duration>,
    missing: impl Fn() -> Error,
    change: impl FnMut(&mut T) -> Result<Step<R>, Error>,
) -> Result<Updated<T, R>, Error>
where
    T: Serialize + DeserializeOwned,
{
    let change = in_place(change);
    attempts(store, doc, id, Some(loaded), ttl, missing, change).await
}

/// A change made in place, as [`attempts`] takes it: the record given
/// back with the step.
fn in_place<T, R>(
    mut change: impl FnMut(&mut T) -> Result<Step<R>, Error>,
) -> impl FnMut(T) -> std::future::Ready<Result<(T, Step<R>), Error>> {
    move |mut record: T| {
        let step = change(&mut record);
        std::future::ready(step.map(|step| (record, step)))
    }
}

/// [`update`] for a change that must await something before the write
/// (such as another record written first): `change` takes the record and
/// gives it back, changed or not.
///
/// # Errors
/// As [`update`].
pub async fn update_async<T, R, F, Fut>(
    store: &dyn LobbyStore,
    doc: Doc,
    id: &str,
    ttl: impl Fn(&T) -> Option<Duration>,
    missing: impl Fn() -> Error,
    change: F,
) -> Result<Updated<T, R>, Error>
where
    T: Serialize + DeserializeOwned,
    F: FnMut(T) -> Fut,
    Fut: Future<Output = Result<(T, Step<R>), Error>>,
{
    attempts(store, doc, id, None, ttl, missing, change).await
}

/// The attempts of an update, the first from `loaded` when given.
async fn attempts<T, R, F, Fut>(
    store: &dyn LobbyStore,
    doc: Doc,
    id: &str,
    mut loaded: Option<(u64, T)>,
    ttl: impl Fn(&T) -> Option<Duration>,
    missing: impl Fn() -> Error,
    mut change: F,
) -> Result<Updated<T, R>, Error>
where
    T: Serialize + DeserializeOwned,
    F: FnMut(T) -> Fut,
    Fut: Future<Output = Result<(T, Step<R>), Error>>,
{
    for attempt in 0..ATTEMPTS {
        pause(attempt).await?;
        let (version, record): (u64, T) = match loaded.take() {
            Some(copy) => copy,
            None => load(store, doc, id, &missing).await?,
        };
        let (record, answer) = match change(record).await? {
            (record, Step::Keep(answer)) => {
                return Ok(Updated {
                    version,
                    record,
                    answer,
                });
            }
            (record, Step::Write(answer)) => (record, answer),
        };
        let state = encode(&record)?;
        match store.replace(doc, id, version, &state, ttl(&record)).await {
            Ok(true) => {
                return Ok(Updated {
                    version: version + 1,
                    record,
                    answer,
                });
            }
            Ok(false) => {}
            Err(StoreError::NotFound) => return Err(missing()),
            Err(e) => return Err(e.into()),
        }
    }
    Err(busy(doc, id))
}

/// Like [`update`], for a record that may not exist yet: `change` is then
/// given `T::default()`, and a write inserts it.
///
/// # Errors
/// As [`update`], without a missing record.
pub async fn upsert<T, R>(
    store: &dyn LobbyStore,
    doc: Doc,
    id: &str,
    ttl: impl Fn(&T) -> Option<Duration>,
    mut change: impl FnMut(&mut T) -> Result<Step<R>, Error>,
) -> Result<Updated<T, R>, Error>
where
    T: Serialize + DeserializeOwned + Default,
{
    for attempt in 0..ATTEMPTS {
        pause(attempt).await?;
        let (version, mut record) = match store.get(doc, id).await? {
            Some(snap) => (snap.version, decode::<T>(&snap.state)?),
            None => (0, T::default()),
        };
        let answer = match change(&mut record)? {
            Step::Keep(answer) => {
                return Ok(Updated {
                    version,
                    record,
                    answer,
                });
            }
            Step::Write(answer) => answer,
        };
        let state = encode(&record)?;
        let written = if version == 0 {
            store.insert(doc, id, &state, ttl(&record)).await?
        } else {
            match store.replace(doc, id, version, &state, ttl(&record)).await {
                Ok(written) => written,
                // Gone between the read and the write: insert it next time.
                Err(StoreError::NotFound) => false,
                Err(e) => return Err(e.into()),
            }
        };
        if written {
            return Ok(Updated {
                version: version + 1,
                record,
                answer,
            });
        }
    }
    Err(busy(doc, id))
}

/// Before attempt `attempt`: nothing for the first [`EAGER`], then a
/// random 1 to 8 ms.
async fn pause(attempt: usize) -> Result<(), Error> {
    if attempt >= EAGER {
        let ms = 1 + u64::from(random_bytes::<1>()?[0]) % 8;
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    Ok(())
}

/// The answer after every attempt was lost.
fn busy(doc: Doc, id: &str) -> Error {
    tracing::warn!(
        doc = doc.name(),
        id,
        attempts = ATTEMPTS,
        "update lost every race"
    );
    Error::Busy(format!(
        "the {} changed under {ATTEMPTS} attempts in a row; nothing was done, retry",
        doc.name().replace('_', " ")
    ))
}

/// Decodes a stored document.
///
/// # Errors
/// `Internal` if it does not parse.
pub fn decode<T: serde::de::DeserializeOwned>(state: &str) -> Result<T, Error> {
    Ok(serde_json::from_str(state)?)
}

/// Encodes a document for the store.
///
/// # Errors
/// `Internal` if it does not serialize.
pub fn encode<T: Serialize>(doc: &T) -> Result<String, Error> {
    Ok(serde_json::to_string(doc)?)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use async_trait::async_trait;

    use super::*;
    use crate::lobby::store::{MemoryLobbyStore, Snapshot};

    /// The memory store, but every compare-and-set answers `answer` and
    /// every read is counted.
    struct Rigged {
        inner: MemoryLobbyStore,
        answer: fn() -> Result<bool, StoreError>,
        reads: AtomicUsize,
    }

    #[async_trait]
    impl LobbyStore for Rigged {
        async fn insert(
            &self,
            doc: Doc,
            id: &str,
            state: &str,
            ttl: Option<Duration>,
        ) -> Result<bool, StoreError> {
            self.inner.insert(doc, id, state, ttl).await
        }
        async fn get(&self, doc: Doc, id: &str) -> Result<Option<Snapshot>, StoreError> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            self.inner.get(doc, id).await
        }
        async fn replace(
            &self,
            _doc: Doc,
            _id: &str,
            _expected: u64,
            _state: &str,
            _ttl: Option<Duration>,
        ) -> Result<bool, StoreError> {
            (self.answer)()
        }
        async fn index_add(&self, index: &str, entry: &str) -> Result<(), StoreError> {
            self.inner.index_add(index, entry).await
        }
        async fn index_remove(&self, index: &str, entry: &str) -> Result<(), StoreError> {
            self.inner.index_remove(index, entry).await
        }
        async fn index_page(
            &self,
            index: &str,
            after: Option<&str>,
            limit: usize,
        ) -> Result<Vec<String>, StoreError> {
            self.inner.index_page(index, after, limit).await
        }
        async fn push_event(&self, player: &str, event: &str) -> Result<u64, StoreError> {
            self.inner.push_event(player, event).await
        }
        async fn push_event_once(
            &self,
            player: &str,
            once: &str,
            event: &str,
        ) -> Result<Option<u64>, StoreError> {
            self.inner.push_event_once(player, once, event).await
        }
        async fn events_after(
            &self,
            player: &str,
            after: u64,
            limit: usize,
        ) -> Result<(Vec<(u64, String)>, u64), StoreError> {
            self.inner.events_after(player, after, limit).await
        }
        async fn wait_events(
            &self,
            player: &str,
            after: u64,
            timeout: Duration,
        ) -> Result<u64, StoreError> {
            self.inner.wait_events(player, after, timeout).await
        }
    }

    async fn rigged(answer: fn() -> Result<bool, StoreError>) -> Rigged {
        let inner = MemoryLobbyStore::new();
        assert!(inner.insert(Doc::Table, "t", "1", None).await.unwrap());
        Rigged {
            inner,
            answer,
            reads: AtomicUsize::new(0),
        }
    }

    fn add_one(n: &mut u64) -> Result<Step<u64>, Error> {
        *n += 1;
        Ok(Step::Write(*n))
    }

    #[tokio::test]
    async fn a_record_that_vanishes_before_its_write_is_the_domains_not_found() {
        let store = rigged(|| Err(StoreError::NotFound)).await;
        let r = update(
            &store,
            Doc::Table,
            "t",
            |_| None,
            || Error::TableNotFound,
            add_one,
        )
        .await;
        assert_eq!(r.err(), Some(Error::TableNotFound));
        let r = update(
            &store,
            Doc::Table,
            "gone",
            |_| None,
            || Error::TableNotFound,
            add_one,
        )
        .await;
        assert_eq!(r.err(), Some(Error::TableNotFound), "never there");
    }

    #[tokio::test]
    async fn every_lost_race_reads_again_and_the_budget_ends_busy() {
        let store = rigged(|| Ok(false)).await;
        let r = update(
            &store,
            Doc::Table,
            "t",
            |_| None,
            || Error::TableNotFound,
            add_one,
        )
        .await;
        assert!(matches!(r, Err(Error::Busy(_))));
        assert_eq!(store.reads.load(Ordering::SeqCst), ATTEMPTS);
    }

    /// [`update_from`] of table `t` in `store` from the copy `7` at
    /// version 1.
    async fn from_copy(
        store: &Rigged,
        change: fn(&mut u64) -> Result<Step<u64>, Error>,
    ) -> Result<Updated<u64, u64>, Error> {
        let missing = || Error::TableNotFound;
        update_from(store, Doc::Table, "t", (1, 7), |_| None, missing, change).await
    }

    #[tokio::test]
    async fn an_update_from_a_copy_reads_only_after_a_lost_race() {
        let store = rigged(|| Ok(true)).await;
        let kept = from_copy(&store, |n| Ok(Step::Keep(*n))).await.unwrap();
        assert_eq!((kept.version, kept.record), (1, 7), "the copy, kept");
        let written = from_copy(&store, add_one).await.unwrap();
        assert_eq!((written.version, written.answer), (2, 8));
        assert_eq!(store.reads.load(Ordering::SeqCst), 0, "nothing read");
        let lost = rigged(|| Ok(false)).await;
        let r = from_copy(&lost, add_one).await;
        assert!(matches!(r, Err(Error::Busy(_))));
        assert_eq!(
            lost.reads.load(Ordering::SeqCst),
            ATTEMPTS - 1,
            "every attempt after the copy's reads"
        );
    }

    #[tokio::test]
    async fn a_won_race_writes_once_and_keep_writes_nothing() {
        let store = MemoryLobbyStore::new();
        assert!(store.insert(Doc::Table, "t", "41", None).await.unwrap());
        let done = update(
            &store,
            Doc::Table,
            "t",
            |_| None,
            || Error::TableNotFound,
            add_one,
        )
        .await
        .unwrap();
        assert_eq!((done.version, done.record, done.answer), (2, 42, 42));
        let kept = update(
            &store,
            Doc::Table,
            "t",
            |_| None,
            || Error::TableNotFound,
            |n: &mut u64| Ok(Step::Keep(*n)),
        )
        .await
        .unwrap();
        assert_eq!((kept.version, kept.answer), (2, 42));
        let made = upsert(&store, Doc::Queued, "q", |_| None, add_one)
            .await
            .unwrap();
        assert_eq!(
            (made.version, made.record),
            (1, 1),
            "inserted from the default"
        );
        assert_eq!(
            store.get(Doc::Table, "t").await.unwrap().unwrap().version,
            2
        );
    }
}
