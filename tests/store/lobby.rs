//! The `LobbyStore` contract, on the in-memory store, on Redis and on a
//! Redis Cluster.

use std::sync::Arc;
use std::time::Duration;

use botifarra::lobby::store::{
    Doc, EVENTS_KEPT, LobbyStore, MemoryLobbyStore, ONCE_KEPT, RedisLobbyStore,
};
use botifarra::store::StoreError;

use crate::backends::{Backend, OnBackend, all_stores, cluster::cluster_urls, redis::redis_url};

impl OnBackend for Arc<dyn LobbyStore> {
    async fn on(backend: Backend) -> Self {
        match backend {
            Backend::Memory => Arc::new(MemoryLobbyStore::new()),
            Backend::Redis => Arc::new(
                RedisLobbyStore::connect(&redis_url())
                    .await
                    .expect("connect to the test Redis"),
            ),
            Backend::Cluster => Arc::new(
                RedisLobbyStore::connect_cluster(&cluster_urls())
                    .await
                    .expect("connect to the test Redis Cluster"),
            ),
        }
    }
}

/// A fresh id, so that tests sharing one Redis never meet.
fn fresh(prefix: &str) -> String {
    format!(
        "{prefix}{}",
        hex::encode(botifarra::service::random_bytes::<8>().unwrap())
    )
}

async fn documents_are_created_once_and_replaced_by_compare_and_set(store: Arc<dyn LobbyStore>) {
    let id = fresh("t");
    assert!(store.insert(Doc::Table, &id, "a", None).await.unwrap());
    assert!(!store.insert(Doc::Table, &id, "b", None).await.unwrap());
    let snap = store.get(Doc::Table, &id).await.unwrap().unwrap();
    assert_eq!((snap.version, snap.state.as_str()), (1, "a"));
    assert!(store.replace(Doc::Table, &id, 1, "c", None).await.unwrap());
    assert!(!store.replace(Doc::Table, &id, 1, "d", None).await.unwrap());
    let snap = store.get(Doc::Table, &id).await.unwrap().unwrap();
    assert_eq!((snap.version, snap.state.as_str()), (2, "c"));
    // Kinds are separate namespaces.
    assert!(store.get(Doc::Player, &id).await.unwrap().is_none());
    assert!(matches!(
        store.replace(Doc::Player, &id, 1, "x", None).await,
        Err(StoreError::NotFound)
    ));
}

async fn concurrent_replaces_of_one_version_apply_once(store: Arc<dyn LobbyStore>) {
    let id = fresh("t");
    assert!(store.insert(Doc::Table, &id, "0", None).await.unwrap());
    let tasks: Vec<_> = (0..32)
        .map(|i| {
            let (store, id) = (Arc::clone(&store), id.clone());
            tokio::spawn(async move {
                store
                    .replace(Doc::Table, &id, 1, &i.to_string(), None)
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut won = 0;
    for t in tasks {
        won += usize::from(t.await.unwrap());
    }
    assert_eq!(won, 1);
    assert_eq!(
        store.get(Doc::Table, &id).await.unwrap().unwrap().version,
        2
    );
}

async fn documents_expire_after_their_ttl(store: Arc<dyn LobbyStore>) {
    let id = fresh("i");
    let ttl = Some(Duration::from_millis(200));
    assert!(store.insert(Doc::Invite, &id, "t1", ttl).await.unwrap());
    assert!(store.get(Doc::Invite, &id).await.unwrap().is_some());
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(store.get(Doc::Invite, &id).await.unwrap().is_none());
    assert!(store.insert(Doc::Invite, &id, "t2", ttl).await.unwrap());
}

async fn indexes_page_in_text_order(store: Arc<dyn LobbyStore>) {
    let index = fresh("test:");
    for e in ["b", "a", "d", "c"] {
        store.index_add(&index, e).await.unwrap();
    }
    store.index_remove(&index, "c").await.unwrap();
    assert_eq!(store.index_page(&index, None, 2).await.unwrap(), ["a", "b"]);
    assert_eq!(store.index_page(&index, Some("b"), 2).await.unwrap(), ["d"]);
    assert!(
        store
            .index_page(&fresh("none:"), None, 5)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn an_index_keeps_its_first_entries(store: Arc<dyn LobbyStore>) {
    let index = fresh("keep:");
    for e in ["e", "b", "a", "d", "c"] {
        store.index_add(&index, e).await.unwrap();
    }
    store.index_keep(&index, 3).await.unwrap();
    assert_eq!(
        store.index_page(&index, None, 10).await.unwrap(),
        ["a", "b", "c"]
    );
    store.index_keep(&index, 5).await.unwrap();
    assert_eq!(
        store.index_page(&index, None, 10).await.unwrap(),
        ["a", "b", "c"]
    );
    store.index_keep(&index, 0).await.unwrap();
    assert!(store.index_page(&index, None, 10).await.unwrap().is_empty());
    store.index_keep(&fresh("none:"), 1).await.unwrap();
}

async fn player_events_are_numbered_capped_and_resumable(store: Arc<dyn LobbyStore>) {
    let p = fresh("p");
    assert_eq!(store.events_after(&p, 0, 10).await.unwrap(), (vec![], 0));
    for i in 1..=EVENTS_KEPT as u64 + 10 {
        assert_eq!(store.push_event(&p, &format!("e{i}")).await.unwrap(), i);
    }
    let last = EVENTS_KEPT as u64 + 10;
    let (page, l) = store.events_after(&p, 0, 3).await.unwrap();
    assert_eq!(l, last);
    assert_eq!(page[0], (11, "e11".to_string()), "the oldest are dropped");
    assert_eq!(page.len(), 3);
    let (page, _) = store.events_after(&p, last - 2, 10).await.unwrap();
    assert_eq!(
        page,
        vec![
            (last - 1, format!("e{}", last - 1)),
            (last, format!("e{last}"))
        ]
    );
    assert!(store.events_after(&p, last, 10).await.unwrap().0.is_empty());
}

async fn a_push_wakes_a_waiter(store: Arc<dyn LobbyStore>) {
    let p = fresh("p");
    let waiter = {
        let (store, p) = (Arc::clone(&store), p.clone());
        tokio::spawn(async move { store.wait_events(&p, 0, Duration::from_secs(20)).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    store.push_event(&p, "hello").await.unwrap();
    assert_eq!(waiter.await.unwrap().unwrap(), 1);
    // Nothing new: the wait times out with the last number.
    assert_eq!(
        store
            .wait_events(&p, 1, Duration::from_millis(50))
            .await
            .unwrap(),
        1
    );
}

async fn an_event_with_a_once_key_is_pushed_once(store: Arc<dyn LobbyStore>) {
    let p = fresh("p");
    let once = |k: &str| {
        let (store, p, k) = (Arc::clone(&store), p.clone(), k.to_string());
        async move {
            store
                .push_event_once(&p, &k, &format!("e-{k}"))
                .await
                .unwrap()
        }
    };
    assert_eq!(once("a").await, Some(1));
    assert_eq!(once("a").await, None, "the same key again adds nothing");
    assert_eq!(store.push_event(&p, "plain").await.unwrap(), 2);
    assert_eq!(once("b").await, Some(3));
    assert_eq!(once("a").await, None);
    let (page, last) = store.events_after(&p, 0, 10).await.unwrap();
    assert_eq!(last, 3);
    let bodies: Vec<&str> = page.iter().map(|(_, e)| e.as_str()).collect();
    assert_eq!(bodies, ["e-a", "plain", "e-b"]);
    // Keys are remembered per player.
    let other = fresh("p");
    assert_eq!(
        store.push_event_once(&other, "a", "x").await.unwrap(),
        Some(1)
    );
    // Past ONCE_KEPT newer keys, the oldest is forgotten.
    for i in 0..ONCE_KEPT {
        assert!(once(&format!("k{i}")).await.is_some());
    }
    assert!(
        once("a").await.is_some(),
        "forgotten after {ONCE_KEPT} newer keys"
    );
    assert_eq!(once(&format!("k{}", ONCE_KEPT - 1)).await, None);
}

all_stores!(
    documents_are_created_once_and_replaced_by_compare_and_set,
    concurrent_replaces_of_one_version_apply_once,
    documents_expire_after_their_ttl,
    indexes_page_in_text_order,
    an_index_keeps_its_first_entries,
    player_events_are_numbered_capped_and_resumable,
    an_event_with_a_once_key_is_pushed_once,
    a_push_wakes_a_waiter,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_through_one_redis_store_wakes_a_waiter_on_another() {
    let a = RedisLobbyStore::connect(&redis_url()).await.unwrap();
    let b = RedisLobbyStore::connect(&redis_url()).await.unwrap();
    push_through_one_wakes_a_waiter_on_the_other(a, b).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_through_one_cluster_store_wakes_a_waiter_on_another() {
    let a = RedisLobbyStore::connect_cluster(&cluster_urls())
        .await
        .unwrap();
    let b = RedisLobbyStore::connect_cluster(&cluster_urls())
        .await
        .unwrap();
    push_through_one_wakes_a_waiter_on_the_other(a, b).await;
}

/// Players' waits on `a` woken by pushes through `b`, for players spread
/// over every slot range (on a cluster, over every master). `a` re-reads
/// only once a minute and its waits end after 20 s without a last
/// re-read: a wait that returns the new event was woken by a
/// notification.
async fn push_through_one_wakes_a_waiter_on_the_other(a: RedisLobbyStore, b: RedisLobbyStore) {
    let a = Arc::new(a.with_recheck_interval(Duration::from_secs(60)));
    let players: Vec<String> = (0..12).map(|_| fresh("p")).collect();
    let waiters: Vec<_> = players
        .iter()
        .map(|p| {
            let (a, p) = (Arc::clone(&a), p.clone());
            tokio::spawn(async move { a.wait_events(&p, 0, Duration::from_secs(20)).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    for p in &players {
        b.push_event(p, "hello").await.unwrap();
    }
    for w in waiters {
        assert_eq!(w.await.unwrap().unwrap(), 1);
    }
}

/// On a cluster the lobby's documents and indexes spread over every master
/// (each index its own hash tag), and every write stays in one slot (a
/// script touching two would be refused by the cluster).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_cluster_lobby_records_and_indexes_spread_over_every_master() {
    let store = RedisLobbyStore::connect_cluster(&cluster_urls())
        .await
        .unwrap();
    let tag = fresh("spread");
    for i in 0..30 {
        let id = format!("{tag}-{i}");
        assert!(store.insert(Doc::Player, &id, "{}", None).await.unwrap());
        assert!(
            store
                .replace(Doc::Player, &id, 1, "{}", None)
                .await
                .unwrap()
        );
        store.index_add(&format!("{tag}:{i}"), "e").await.unwrap();
        assert_eq!(store.push_event(&id, "e").await.unwrap(), 1);
    }
    for url in cluster_urls() {
        let mut node = ::redis::Client::open(url.as_str())
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap();
        for pattern in [
            format!("bf:{{{tag}-*}}:player"),
            format!("bf:{{ix:{tag}:*}}"),
        ] {
            let keys: Vec<String> = ::redis::cmd("KEYS")
                .arg(&pattern)
                .query_async(&mut node)
                .await
                .unwrap();
            assert!(!keys.is_empty(), "no {pattern} on the master {url}");
        }
    }
}
