//! The matchmaking queue on Redis: how fast it forms matches, and how long
//! a player waits from queueing to a started match.
//!
//! `cargo bench --bench queue -- [--players 1000] [--clients 32] [--newcomers 400]`
//!
//! Uses `REDIS_URL` if set (an empty Redis: the pools are global),
//! otherwise starts a throwaway `redis-server` on a free port. The
//! service runs in this process with the Redis match and lobby stores
//! (no HTTP), on a two-thread runtime.
//!
//! - **burst**: `--players` bot players (rating 1500) queue for rated
//!   pairs at once from `--clients` concurrent tasks; each then long-polls
//!   its ticket until matched. Reported: matches formed per second over
//!   the whole burst, and the time from queueing to a started match
//!   (p50/p90/p99/max).
//! - **crowded**: `--players` other players wait in the same pool at a
//!   rating no window reaches (their rating set to 3000), and
//!   `--newcomers` players at 1500 queue as above: the same figures with
//!   the pool document holding 1000 waiting tickets.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use botifarra::lobby::queue::{Enqueue, TicketStatus};
use botifarra::lobby::records::{self, PlayerKind, PlayerRating, PlayerRecord};
use botifarra::lobby::store::{Doc, RedisLobbyStore};
use botifarra::lobby::{Lobby, NewPlayer};
use botifarra::rating::Rating;
use botifarra::rules::Variant;
use botifarra::service::{Limits, Service};
use botifarra::store::RedisStore;

struct Redis(Option<Child>);

impl Drop for Redis {
    fn drop(&mut self) {
        if let Some(c) = &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn redis() -> (Redis, String) {
    if let Ok(url) = std::env::var("REDIS_URL") {
        return (Redis(None), url);
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("redis-server on PATH (or set REDIS_URL)");
    let addr = format!("127.0.0.1:{port}");
    for _ in 0..100 {
        if std::net::TcpStream::connect(&addr).is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (Redis(Some(child)), format!("redis://{addr}"))
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn register(svc: &Lobby, n: usize, prefix: &str) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let r = svc
            .register(NewPlayer {
                name: format!("{prefix}{i}"),
                kind: PlayerKind::Bot,
            })
            .await
            .expect("register");
        out.push((r.player.id, r.api_key));
    }
    out
}

fn pairs() -> Enqueue {
    Enqueue {
        variant: Variant::Pairs,
        rated: true,
        partner: None,
        accept_bots: true,
        only_bots: false,
        fill_with_house_bots_after_s: None,
        fill_level: None,
        expires_in_s: Some(3600),
    }
}

/// Queues every player from `clients` tasks, each long-polling its
/// tickets; returns the elapsed time and each player's wait.
async fn burst(
    svc: &Lobby,
    players: Vec<(String, String)>,
    clients: usize,
) -> (Duration, Vec<Duration>) {
    let start = Instant::now();
    let chunks: Vec<Vec<(String, String)>> = (0..clients)
        .map(|c| players.iter().skip(c).step_by(clients).cloned().collect())
        .collect();
    let tasks: Vec<_> = chunks
        .into_iter()
        .map(|chunk| {
            let svc = svc.clone();
            tokio::spawn(async move {
                let mut queued = Vec::new();
                for (_, key) in &chunk {
                    let t = svc.enqueue(key, pairs()).await.expect("queue");
                    queued.push((key.clone(), t.ticket.id));
                }
                let mut waits = Vec::new();
                for (key, id) in queued {
                    loop {
                        let t = svc.ticket(&key, &id, 30_000).await.expect("ticket");
                        if t.ticket.status == TicketStatus::Matched {
                            // Marked matched once its match was created.
                            let done = t.ticket.finished_ms.unwrap_or(t.ticket.created_ms);
                            waits.push(Duration::from_millis(done - t.ticket.created_ms));
                            break;
                        }
                        assert_eq!(t.ticket.status, TicketStatus::Waiting);
                    }
                }
                waits
            })
        })
        .collect();
    let mut waits = Vec::new();
    for t in tasks {
        waits.extend(t.await.expect("task"));
    }
    (start.elapsed(), waits)
}

fn report(name: &str, players: usize, elapsed: Duration, mut waits: Vec<Duration>) {
    waits.sort();
    let q = |p: f64| waits[((waits.len() as f64 - 1.0) * p).round() as usize].as_millis();
    let matches = players / 4;
    println!(
        "{name}: {players} players, {matches} matches in {:.2} s = {:.1} matches/s; queue to started match p50 {} ms, p90 {} ms, p99 {} ms, max {} ms",
        elapsed.as_secs_f64(),
        matches as f64 / elapsed.as_secs_f64(),
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0),
    );
}

fn main() {
    let players = arg("--players", 1000);
    let clients = arg("--clients", 32);
    let newcomers = arg("--newcomers", 400);
    let (_redis, url) = redis();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let store = RedisStore::connect(&url, Duration::from_secs(3600))
            .await
            .expect("connect the match store");
        let lobby = Arc::new(
            RedisLobbyStore::connect(&url)
                .await
                .expect("connect the lobby"),
        );
        let svc = Lobby::new(
            Service::new(Arc::new(store), Limits::default()).expect("service"),
            lobby.clone(),
        );
        let burst_players = register(&svc, players, "b").await;
        let (elapsed, waits) = burst(&svc, burst_players, clients).await;
        report("burst", players, elapsed, waits);

        // The crowd: players far above every window, waiting.
        let crowd = register(&svc, players, "c").await;
        for (id, key) in &crowd {
            use botifarra::lobby::store::LobbyStore;
            let snap = lobby.get(Doc::Player, id).await.unwrap().unwrap();
            let mut p: PlayerRecord = records::decode(&snap.state).unwrap();
            p.ratings.insert(
                "pairs".into(),
                PlayerRating {
                    rating: Rating {
                        rating: 3000.0,
                        ..Rating::default()
                    },
                    games: 0,
                    updated_ms: 0,
                    applied: Vec::new(),
                    horizon_ms: 0,
                    recent: Vec::new(),
                },
            );
            let state = records::encode(&p).unwrap();
            assert!(
                lobby
                    .replace(Doc::Player, id, snap.version, &state, None)
                    .await
                    .unwrap()
            );
            svc.enqueue(key, pairs()).await.expect("queue");
        }
        let fresh = register(&svc, newcomers, "n").await;
        let (elapsed, waits) = burst(&svc, fresh, clients).await;
        report(
            &format!("crowded ({players} waiting)"),
            newcomers,
            elapsed,
            waits,
        );
    });
}
