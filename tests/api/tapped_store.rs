//! A lobby store that passes everything to another one, and lets a test
//! watch what is inserted, count every write, or refuse some writes.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use botifarra::lobby::store::{Doc, LobbyStore, Snapshot, StoreError};

/// `inner`, with `on_insert` told of each document inserted, and
/// `refuse_index`, `refuse_replace` and `refuse_once` deciding which
/// `index_add`s, `replace`s and `push_event_once`s (by once-key) fail as
/// if the backend were down; `writes` counts every write asked (refused
/// or not).
/// Says whether to refuse a replace of a `Doc` with the given state.
pub type StateFilter = Box<dyn Fn(Doc, &str) -> bool + Send + Sync>;

pub struct TappedStore {
    pub inner: Arc<dyn LobbyStore>,
    pub on_insert: Box<dyn Fn(Doc) + Send + Sync>,
    pub refuse_index: Box<dyn Fn(&str) -> bool + Send + Sync>,
    pub refuse_replace: Box<dyn Fn(Doc) -> bool + Send + Sync>,
    pub refuse_state: StateFilter,
    pub refuse_once: Box<dyn Fn(&str) -> bool + Send + Sync>,
    pub writes: Arc<AtomicU64>,
}

impl TappedStore {
    /// `inner`, untouched.
    pub fn over(inner: Arc<dyn LobbyStore>) -> TappedStore {
        TappedStore {
            inner,
            on_insert: Box::new(|_| ()),
            refuse_index: Box::new(|_| false),
            refuse_replace: Box::new(|_| false),
            refuse_state: Box::new(|_, _| false),
            refuse_once: Box::new(|_| false),
            writes: Arc::new(AtomicU64::new(0)),
        }
    }

    fn wrote(&self) {
        self.writes.fetch_add(1, Ordering::SeqCst);
    }
}

#[async_trait]
impl LobbyStore for TappedStore {
    async fn insert(
        &self,
        doc: Doc,
        id: &str,
        state: &str,
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        self.wrote();
        (self.on_insert)(doc);
        self.inner.insert(doc, id, state, ttl).await
    }
    async fn get(&self, doc: Doc, id: &str) -> Result<Option<Snapshot>, StoreError> {
        self.inner.get(doc, id).await
    }
    async fn replace(
        &self,
        doc: Doc,
        id: &str,
        expected: u64,
        state: &str,
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        self.wrote();
        if (self.refuse_replace)(doc) || (self.refuse_state)(doc, state) {
            return Err(StoreError::Unavailable("refused by the test".into()));
        }
        self.inner.replace(doc, id, expected, state, ttl).await
    }
    async fn index_add(&self, index: &str, entry: &str) -> Result<(), StoreError> {
        self.wrote();
        if (self.refuse_index)(index) {
            return Err(StoreError::Unavailable("refused by the test".into()));
        }
        self.inner.index_add(index, entry).await
    }
    async fn index_remove(&self, index: &str, entry: &str) -> Result<(), StoreError> {
        self.wrote();
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
        self.wrote();
        self.inner.push_event(player, event).await
    }
    async fn push_event_once(
        &self,
        player: &str,
        once: &str,
        event: &str,
    ) -> Result<Option<u64>, StoreError> {
        self.wrote();
        if (self.refuse_once)(once) {
            return Err(StoreError::Unavailable("refused by the test".into()));
        }
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
