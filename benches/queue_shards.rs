//! How fast the sharded queue forms matches with a crowd waiting in every
//! pool, on memory, one Redis or a Redis Cluster (no HTTP: the service
//! runs in this process, on a two-thread runtime).
//!
//! ```text
//! cargo bench --bench queue_shards -- --store cluster --crowd 10000 \
//!     --players 4000 --clients 64 --spread
//! ```
//!
//! `--store memory` (the default), `redis` (`REDIS_URL`) or `cluster`
//! (`REDIS_CLUSTER_NODES`, comma-separated), each empty: the pools are
//! global.
//!
//! 1. **Crowd**: `--crowd` human players that want only bots, rated
//!    uniformly from 800 to 3,000, queue round robin in the six pools
//!    (three variants, rated and casual). Nobody in the run accepts them,
//!    so they all wait: every shard's document holds its share.
//! 2. **Burst**: `--players` bots that want only bots queue at once from
//!    `--clients` tasks, each queueing its share one after the other.
//!    With `--spread`, rated uniformly from 1,000 to 2,600 in the six
//!    pools round robin (every band of every pool takes joins); without,
//!    all at 1,500 in rated pairs (one band of one pool: what a pool
//!    was before it was sharded).
//! 3. **Report**: matches formed a second, from the first queueing to the
//!    last answer (a ticket is matched once its match is created), and
//!    each matched ticket's time from queueing to its match created
//!    (p50, p99, max), read from the tickets.

use std::sync::Arc;
use std::time::{Duration, Instant};

use botifarra::lobby::queue::{Enqueue, TicketStatus};
use botifarra::lobby::records::{self, PlayerKind, PlayerRecord};
use botifarra::lobby::store::{Doc, LobbyStore, MemoryLobbyStore, RedisLobbyStore};
use botifarra::lobby::{Lobby, NewPlayer};
use botifarra::rules::Variant;
use botifarra::service::{Limits, Service};
use botifarra::store::{MatchStore, MemoryLimits, MemoryStore, RedisStore};

#[path = "common/args.rs"]
mod args;
use args::{arg, flag, num};

/// The six pools, round robin.
fn pool(n: usize) -> (Variant, bool) {
    let v = Variant::ALL[n % 3];
    (v, (n / 3).is_multiple_of(2))
}

fn request(variant: Variant, rated: bool) -> Enqueue {
    Enqueue {
        variant,
        rated,
        partner: None,
        accept_bots: true,
        only_bots: true,
        fill_with_house_bots_after_s: None,
        fill_level: None,
        expires_in_s: Some(3600),
    }
}

async fn stores(kind: &str) -> (Arc<dyn MatchStore>, Arc<dyn LobbyStore>) {
    let ttl = Duration::from_secs(3600);
    match kind {
        "memory" => (
            Arc::new(MemoryStore::with_limits(MemoryLimits::default())),
            Arc::new(MemoryLobbyStore::new()),
        ),
        "redis" => {
            let url = std::env::var("REDIS_URL").expect("--store redis needs REDIS_URL");
            (
                Arc::new(RedisStore::connect(&url, ttl).await.expect("match store")),
                Arc::new(RedisLobbyStore::connect(&url).await.expect("lobby store")),
            )
        }
        "cluster" => {
            let nodes: Vec<String> = std::env::var("REDIS_CLUSTER_NODES")
                .expect("--store cluster needs REDIS_CLUSTER_NODES")
                .split(',')
                .map(str::to_string)
                .collect();
            (
                Arc::new(
                    RedisStore::connect_cluster(&nodes, ttl)
                        .await
                        .expect("match store"),
                ),
                Arc::new(
                    RedisLobbyStore::connect_cluster(&nodes)
                        .await
                        .expect("lobby store"),
                ),
            )
        }
        other => panic!("--store memory, redis or cluster, not {other}"),
    }
}

/// Registers a player of `kind` rated `rating` in every pool: its key.
async fn player(lobby: &Lobby, name: String, kind: PlayerKind, rating: f64) -> String {
    let r = lobby
        .register(NewPlayer { name, kind })
        .await
        .expect("register");
    let store = lobby.store();
    let snap = store.get(Doc::Player, &r.player.id).await.unwrap().unwrap();
    let mut p: PlayerRecord = records::decode(&snap.state).unwrap();
    for pool in ["pairs", "abarrotada", "abarrotada3"] {
        let mut e = p.ratings.get(pool).cloned().unwrap_or_default();
        e.rating.rating = rating;
        p.ratings.insert(pool.to_string(), e);
    }
    let state = records::encode(&p).unwrap();
    let ok = store
        .replace(Doc::Player, &r.player.id, snap.version, &state, None)
        .await
        .unwrap();
    assert!(ok, "rating set");
    r.api_key
}

/// A rating uniform in `lo..hi`, from a fixed sequence.
fn spread(n: usize, lo: f64, hi: f64) -> f64 {
    let x = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11;
    lo + (hi - lo) * (x as f64 / (1u64 << 53) as f64)
}

fn main() {
    let kind = arg("--store", "memory");
    let crowd = num::<usize>("--crowd", 10_000);
    let players = num::<usize>("--players", 4000);
    let clients = num::<usize>("--clients", 64);
    let spread_out = flag("--spread");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let (matches, lobby_store) = stores(&kind).await;
        let limits = Limits::default();
        let lobby = Lobby::new(Service::new(matches, limits).expect("service"), lobby_store);
        let setup = Instant::now();
        for i in 0..crowd {
            let key = player(&lobby, format!("c{i}"), PlayerKind::Human, spread(i, 800.0, 3000.0)).await;
            let (v, rated) = pool(i);
            lobby.enqueue(&key, request(v, rated)).await.expect("crowd queues");
        }
        let mut burst = Vec::with_capacity(players);
        for i in 0..players {
            let (rating, (v, rated)) = if spread_out {
                (spread(i + crowd, 1000.0, 2600.0), pool(i))
            } else {
                (1500.0, (Variant::Pairs, true))
            };
            let key = player(&lobby, format!("b{i}"), PlayerKind::Bot, rating).await;
            burst.push((key, v, rated));
        }
        println!(
            "{kind}: {crowd} waiting in the crowd, {players} burst players ({}), set up in {:.1} s",
            if spread_out { "spread over every band of the six pools" } else { "all at 1500, rated pairs" },
            setup.elapsed().as_secs_f64()
        );
        let start = Instant::now();
        let tasks: Vec<_> = (0..clients)
            .map(|c| {
                let lobby = lobby.clone();
                let mine: Vec<_> = burst.iter().skip(c).step_by(clients).cloned().collect();
                tokio::spawn(async move {
                    let mut out = Vec::new();
                    for (key, v, rated) in mine {
                        let t = lobby.enqueue(&key, request(v, rated)).await.expect("queue");
                        out.push((key, t.ticket.id));
                    }
                    out
                })
            })
            .collect();
        let mut tickets = Vec::new();
        for t in tasks {
            tickets.extend(t.await.expect("task"));
        }
        let elapsed = start.elapsed();
        let (mut waits, mut seats) = (Vec::new(), 0usize);
        let mut formed = std::collections::HashSet::new();
        for (key, id) in &tickets {
            let t = lobby.ticket(key, id, 0).await.expect("ticket").ticket;
            if t.status == TicketStatus::Matched {
                seats += 1;
                formed.insert(t.match_id.clone().unwrap_or_default());
                waits.push(t.finished_ms.unwrap_or(t.created_ms) - t.created_ms);
            }
        }
        waits.sort_unstable();
        let q = |p: f64| waits.get(((waits.len().max(1) - 1) as f64 * p).round() as usize).copied().unwrap_or(0);
        println!(
            "{} of {} tickets matched in {} matches in {:.2} s = {:.1} matches/s; queue to started match p50 {} ms, p99 {} ms, max {} ms",
            seats,
            tickets.len(),
            formed.len(),
            elapsed.as_secs_f64(),
            formed.len() as f64 / elapsed.as_secs_f64(),
            q(0.5),
            q(0.99),
            q(1.0)
        );
    });
}
