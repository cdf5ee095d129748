//! The queue's rating bands: tickets on both sides of a band's edge are
//! seated together as if the pool were one, and racing joins around the
//! edges from two instances seat every ticket once, leaving nothing lent
//! or half-borrowed — on memory, Redis and a Redis Cluster.
//!
//! The players here are rated 2,380 to 3,420 (bands 11 to 17 of
//! abarrotada3; each test its own bands), far from the 1,500 every other
//! test's players start at, so that tests sharing the test Redis never
//! meet in a pool.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use botifarra::lobby::queue::{
    BANDS, Enqueue, Entry, PoolRecord, Shard, TicketStatus, band_of, run_pass,
};
use botifarra::lobby::records::{PlayerKind, PlayerRecord, decode, encode};
use botifarra::lobby::store::Doc;
use botifarra::lobby::{Lobby, NewPlayer};
use botifarra::rules::Variant;
use botifarra::service::clock_now_ms;

use crate::app::{Backend, lobby_for, lobby_over, lobby_store_for};
use crate::backends::all_stores;
use crate::tapped_store::TappedStore;

const VARIANT: Variant = Variant::Abarrotada3;

/// A bot player rated `rating` in abarrotada3: (id, key).
async fn rated_player(lobby: &Lobby, name: &str, rating: f64) -> (String, String) {
    let reg = lobby
        .register(NewPlayer {
            name: name.to_string(),
            kind: PlayerKind::Bot,
        })
        .await
        .unwrap();
    let id = reg.player.id.clone();
    let snap = lobby.store().get(Doc::Player, &id).await.unwrap().unwrap();
    let mut p: PlayerRecord = decode(&snap.state).unwrap();
    let mut r = p.ratings.get("abarrotada3").cloned().unwrap_or_default();
    r.rating.rating = rating;
    p.ratings.insert("abarrotada3".to_string(), r);
    let state = encode(&p).unwrap();
    let ok = lobby
        .store()
        .replace(Doc::Player, &id, snap.version, &state, None)
        .await
        .unwrap();
    assert!(ok, "the rating is set");
    (id, reg.api_key)
}

fn queue_request() -> Enqueue {
    Enqueue {
        variant: VARIANT,
        rated: true,
        partner: None,
        accept_bots: true,
        only_bots: false,
        fill_with_house_bots_after_s: None,
        fill_level: None,
        expires_in_s: Some(600),
    }
}

/// The stored shard of `rating`'s band.
async fn shard(lobby: &Lobby, band: u32) -> PoolRecord {
    let id = Shard::of(VARIANT, true, 0.0).at(band).id();
    match lobby.store().get(Doc::QueuePool, &id).await.unwrap() {
        Some(snap) => decode(&snap.state).unwrap(),
        None => PoolRecord::default(),
    }
}

async fn tickets_across_a_band_edge_are_seated_together(backend: Backend) {
    let lobby = lobby_for(backend).await;
    // 3,410 waits in band 17; 3,390 and 3,395 join band 16 afterwards.
    let mut queued = Vec::new();
    for (name, rating) in [("edge-a", 3410.0), ("edge-b", 3390.0), ("edge-c", 3395.0)] {
        let (_, key) = rated_player(&lobby, name, rating).await;
        let view = lobby.enqueue(&key, queue_request()).await.unwrap();
        assert_eq!(band_of(view.ticket.rating), band_of(rating));
        queued.push((key, view.ticket.id));
    }
    assert_ne!(
        band_of(3410.0),
        band_of(3390.0),
        "the edge lies between them"
    );
    let mut matches = HashSet::new();
    for (key, id) in &queued {
        let t = lobby.ticket(key, id, 0).await.unwrap();
        assert_eq!(t.ticket.status, TicketStatus::Matched, "{id}");
        matches.insert(t.ticket.match_id.unwrap());
    }
    assert_eq!(matches.len(), 1, "one match for the three: {matches:?}");
    for band in [16, 17] {
        let pool = shard(&lobby, band).await;
        assert!(
            pool.importing.is_empty() && pool.lent.is_empty(),
            "{pool:?}"
        );
        assert!(
            !pool
                .waiting
                .iter()
                .any(|e| queued.iter().any(|q| q.1 == e.ticket))
        );
    }
}

async fn racing_joins_around_band_edges_seat_every_ticket_once(backend: Backend) {
    let lobbies = [lobby_for(backend).await, lobby_for(backend).await];
    let lobbies = if backend == Backend::Memory {
        [lobbies[0].clone(), lobbies[0].clone()]
    } else {
        lobbies
    };
    // 90 players within 20 points of the edges at 2,800 and 3,000, 45 at
    // each (15 matches' worth, split unevenly between the bands on either
    // side), queueing at once through two instances.
    let mut players = Vec::new();
    for i in 0..90u32 {
        let edge = if i % 2 == 0 { 2800.0 } else { 3000.0 };
        let rating = edge - 20.0 + f64::from((i * 7) % 41);
        let (id, key) = rated_player(&lobbies[0], &format!("r{i}"), rating).await;
        players.push((id, key, rating));
    }
    let tasks: Vec<_> = players
        .iter()
        .enumerate()
        .map(|(n, (_, key, _))| {
            let lobby = lobbies[n % 2].clone();
            let key = key.clone();
            tokio::spawn(async move { lobby.enqueue(&key, queue_request()).await })
        })
        .collect();
    let mut tickets = Vec::new();
    for t in tasks {
        tickets.push(t.await.unwrap().expect("queued").ticket.id);
    }
    lobbies[1].pass(VARIANT, true).await.unwrap();
    // Every ticket is matched once or still waiting in its own band.
    let mut seated: HashMap<String, usize> = HashMap::new();
    let mut by_match: HashMap<String, Vec<String>> = HashMap::new();
    let mut left = Vec::new();
    for ((pid, key, rating), id) in players.iter().zip(&tickets) {
        let t = lobbies[0].ticket(key, id, 0).await.unwrap().ticket;
        match t.status {
            TicketStatus::Matched => {
                let m = t.match_id.unwrap();
                by_match.entry(m).or_default().push(pid.clone());
                *seated.entry(pid.clone()).or_default() += 1;
            }
            TicketStatus::Waiting => left.push((id.clone(), *rating)),
            other => panic!("ticket {id} is {other:?}"),
        }
    }
    assert!(seated.values().all(|&n| n == 1));
    for (m, ps) in &by_match {
        assert_eq!(ps.len(), 3, "match {m}: {ps:?}");
        let view = lobbies[0].service().view(m, None).await.unwrap();
        let mut seen: Vec<String> = view
            .seats
            .iter()
            .filter_map(|s| s.player.as_ref().map(|p| p.id.clone()))
            .collect();
        let mut want = ps.clone();
        seen.sort();
        want.sort();
        assert_eq!(seen, want, "match {m} seats the tickets' players");
    }
    // Nothing lent or half-borrowed; the waiting ones are in their bands.
    let mut waiting: Vec<Entry> = Vec::new();
    for band in 0..BANDS {
        let pool = shard(&lobbies[0], band).await;
        assert!(
            pool.importing.is_empty() && pool.lent.is_empty(),
            "{pool:?}"
        );
        for e in pool.waiting.iter().filter(|e| tickets.contains(&e.ticket)) {
            assert_eq!(band_of(e.rating), band);
            waiting.push(e.clone());
        }
    }
    let mut ids: Vec<&str> = waiting.iter().map(|e| e.ticket.as_str()).collect();
    let mut want: Vec<&str> = left.iter().map(|(id, _)| id.as_str()).collect();
    ids.sort();
    want.sort();
    assert_eq!(ids, want, "the waiting tickets are in the pool, once");
    // What is left could form nothing in one unsharded pool either.
    waiting.sort_by_key(|e| e.created_ms);
    let mut one = PoolRecord {
        waiting,
        ..PoolRecord::default()
    };
    let pass = run_pass(&mut one, VARIANT, clock_now_ms(), &[], || Ok("x".into())).unwrap();
    assert!(pass.formed.is_empty(), "left waiting: {left:?}");
    assert!(left.is_empty(), "left waiting: {left:?}");
    assert_eq!(by_match.len(), 30);
}

async fn a_group_across_bands_left_half_formed_is_finished_by_the_next_pass(backend: Backend) {
    let inner = lobby_store_for(backend).await;
    let mut tapped = TappedStore::over(inner.clone());
    // The forming band's decision is refused once, as if its instance
    // stopped after borrowing the tickets.
    let refused = Arc::new(AtomicBool::new(false));
    let once = refused.clone();
    tapped.refuse_state = Box::new(move |doc, state| {
        doc == Doc::QueuePool
            && state.contains("\"state\":\"formed\"")
            && !once.swap(true, Ordering::SeqCst)
    });
    let a = lobby_over(backend, Arc::new(tapped)).await;
    let mut queued = Vec::new();
    for (name, rating) in [("half-a", 2410.0), ("half-b", 2390.0), ("half-c", 2395.0)] {
        let (_, key) = rated_player(&a, name, rating).await;
        let view = a.enqueue(&key, queue_request()).await.unwrap();
        queued.push((key, view.ticket.id));
    }
    assert!(refused.load(Ordering::SeqCst), "the decision was refused");
    for (key, id) in &queued {
        let t = a.ticket(key, id, 0).await.unwrap();
        assert_eq!(t.ticket.status, TicketStatus::Waiting, "{id}");
    }
    // One band holds the group pending, the other the tickets it lent
    // (which band forms it depends on which ticket is the older).
    let bands = [shard(&a, 11).await, shard(&a, 12).await];
    let lent: usize = bands.iter().map(|p| p.lent.len()).sum();
    let pending: usize = bands.iter().map(|p| p.importing.len()).sum();
    assert_eq!((lent, pending), (1, 1), "{bands:?}");
    // Another instance's next pass carries the group through.
    let b = lobby_over(backend, inner).await;
    b.pass(VARIANT, true).await.unwrap();
    let mut matches = HashSet::new();
    for (key, id) in &queued {
        let t = b.ticket(key, id, 0).await.unwrap();
        assert_eq!(t.ticket.status, TicketStatus::Matched, "{id}");
        matches.insert(t.ticket.match_id.unwrap());
    }
    assert_eq!(matches.len(), 1);
    for band in [11, 12] {
        let pool = shard(&b, band).await;
        assert!(
            pool.importing.is_empty() && pool.lent.is_empty(),
            "{pool:?}"
        );
        assert!(pool.formed.is_empty() && pool.closed.is_empty(), "{pool:?}");
    }
}

/// Tickets that are not yet within each other's windows across an edge
/// are seated together once the windows widened: the band is due at the
/// widening, and its pass then looks across the edge (on memory: the
/// test moves the tickets' queueing time back instead of waiting).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tickets_across_an_edge_meet_once_their_windows_widen() {
    let lobby = lobby_for(Backend::Memory).await;
    let mut queued = Vec::new();
    for (name, rating) in [("wide-a", 3390.0), ("wide-b", 3510.0), ("wide-c", 3515.0)] {
        let (_, key) = rated_player(&lobby, name, rating).await;
        let view = lobby.enqueue(&key, queue_request()).await.unwrap();
        queued.push((key, view.ticket.id, view.ticket.created_ms));
    }
    for (key, id, _) in &queued {
        let t = lobby.ticket(key, id, 0).await.unwrap();
        assert_eq!(t.ticket.status, TicketStatus::Waiting, "120 apart, ±100");
    }
    // Band 16 is due at its ticket's first widening.
    let due_id = format!("{}.due", Shard::of(VARIANT, true, 3390.0).id());
    let due = lobby
        .store()
        .get(Doc::QueuePool, &due_id)
        .await
        .unwrap()
        .unwrap();
    let due: serde_json::Value = serde_json::from_str(&due.state).unwrap();
    assert_eq!(due["due_ms"].as_u64(), Some(queued[0].2 + 10_000), "{due}");
    // Ten seconds later (moved back): ±150, and the pass seats all three.
    for band in [16, 17] {
        let id = Shard::of(VARIANT, true, 0.0).at(band).id();
        let snap = lobby
            .store()
            .get(Doc::QueuePool, &id)
            .await
            .unwrap()
            .unwrap();
        let mut pool: PoolRecord = decode(&snap.state).unwrap();
        for e in &mut pool.waiting {
            e.created_ms -= 10_000;
        }
        let state = encode(&pool).unwrap();
        let store = lobby.store();
        assert!(
            store
                .replace(Doc::QueuePool, &id, snap.version, &state, None)
                .await
                .unwrap()
        );
    }
    lobby.pass(VARIANT, true).await.unwrap();
    let mut matches = HashSet::new();
    for (key, id, _) in &queued {
        let t = lobby.ticket(key, id, 0).await.unwrap();
        assert_eq!(t.ticket.status, TicketStatus::Matched, "{id}");
        matches.insert(t.ticket.match_id.unwrap());
    }
    assert_eq!(matches.len(), 1);
}

all_stores!(
    a_group_across_bands_left_half_formed_is_finished_by_the_next_pass,
    tickets_across_a_band_edge_are_seated_together,
    racing_joins_around_band_edges_seat_every_ticket_once
);
