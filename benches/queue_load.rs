//! `/healthz` and a queue match's creation while many tickets wait and
//! many clients poll theirs: a load tool for a server on this machine.
//!
//! ```text
//! cargo bench --bench queue_load -- --url http://127.0.0.1:8080 \
//!     --tickets 10000 --clients 64 --seconds 20 --rounds 20
//! ```
//!
//! Start the server with the rate limits and the registration cap off
//! (`--rate-limit-per-ip 0 --creates-per-minute 0
//! --players-per-ip-per-day 0`), on an empty store: the pools are global.
//!
//! 1. **Crowd**: `--tickets` human players register (from 16 tasks) and
//!    queue for rated pairs wanting only bots (from 2 tasks). No bot that accepts humans
//!    ever queues, so none of them can be matched: they all wait.
//! 2. **Load**, for `--seconds`: `--clients` tasks each poll one crowd
//!    ticket (`GET /v1/queue/{id}`, no wait) back to back; one task reads
//!    `/healthz` every 10 ms; one task forms `--rounds` matches, each from
//!    four fresh bot players that want only bots, queueing one after the
//!    other in the same pool (the fourth's answer is its ticket matched:
//!    the match is created before the answer).
//!    With `--burst M` (after the rounds, still under load), `4 × M`
//!    fresh bots queue from `--formers` tasks (16) at once, racing on the
//!    pool, until every ticket is matched: matches formed per second, one
//!    pool's ceiling.
//! 3. **Report**: polls per second, `/healthz` latency (p50, p99, max),
//!    each round's time from the first of the four to the fourth's
//!    answer and the fourth request's own latency (p50, p99, max).
//!
//! Only loopback addresses are accepted as targets.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use reqwest::Client;
use serde_json::{Value, json};

#[path = "common/args.rs"]
mod args;
use args::{arg, num};

async fn post(c: &Client, url: &str, key: Option<&str>, body: Value) -> (u16, Value) {
    let mut req = c.post(url).json(&body);
    if let Some(k) = key {
        req = req.bearer_auth(k);
    }
    let r = req.send().await.expect("the server answers");
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// Registers a player; its id and key.
async fn register(c: &Client, base: &str, name: &str, kind: &str) -> String {
    let (s, v) = post(
        c,
        &format!("{base}/v1/players"),
        None,
        json!({"name": name, "kind": kind}),
    )
    .await;
    assert_eq!(s, 201, "register: {v}");
    v["api_key"].as_str().expect("a key").to_string()
}

/// Queues `key` for rated pairs, wanting only bots; the ticket.
async fn queue(c: &Client, base: &str, key: &str) -> Value {
    let body = json!({"variant": "pairs", "only_bots": true, "expires_in_s": 3600});
    let (s, v) = post(c, &format!("{base}/v1/queue"), Some(key), body).await;
    assert_eq!(s, 201, "queue: {v}");
    v
}

fn quantiles(name: &str, mut xs: Vec<Duration>) {
    xs.sort();
    if xs.is_empty() {
        println!("{name}: no samples");
        return;
    }
    let q = |p: f64| xs[((xs.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1000.0;
    println!(
        "{name}: {} samples, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        xs.len(),
        q(0.5),
        q(0.99),
        q(1.0)
    );
}

/// The crowd: `n` humans registered from 16 tasks, then queued from 2
/// (every ticket is a write of the one pool document: more writers
/// would only lose more compare-and-set races); their keys and tickets.
async fn crowd(c: &Client, base: &str, n: usize) -> Vec<(String, String)> {
    let start = Instant::now();
    let spread = |tasks: usize, keys: Vec<String>| {
        (0..tasks)
            .map(|t| {
                let (c, base) = (c.clone(), base.to_string());
                let mine: Vec<String> = keys.iter().skip(t).step_by(tasks).cloned().collect();
                tokio::spawn(async move {
                    let mut out = Vec::new();
                    for (i, key) in mine.into_iter().enumerate() {
                        if key.is_empty() {
                            let name = format!("crowd {t}-{i}");
                            out.push((register(&c, &base, &name, "human").await, String::new()));
                        } else {
                            let ticket = queue(&c, &base, &key).await;
                            assert_eq!(ticket["status"], "waiting", "{ticket}");
                            let id = ticket["ticket_id"].as_str().unwrap().to_string();
                            out.push((key, id));
                        }
                    }
                    out
                })
            })
            .collect::<Vec<_>>()
    };
    let mut keys = Vec::new();
    for t in spread(16, vec![String::new(); n]) {
        keys.extend(
            t.await
                .expect("a register task")
                .into_iter()
                .map(|(k, _)| k),
        );
    }
    let mut all = Vec::new();
    for t in spread(2, keys) {
        all.extend(t.await.expect("a crowd task"));
    }
    println!(
        "crowd: {n} tickets waiting after {:.1} s",
        start.elapsed().as_secs_f64()
    );
    all
}

/// Forms `rounds` matches of four fresh bots; each round's whole time
/// and the fourth request's latency.
async fn rounds(c: &Client, base: &str, rounds: u64) -> (Vec<Duration>, Vec<Duration>) {
    let (mut whole, mut last) = (Vec::new(), Vec::new());
    for r in 0..rounds {
        let mut keys = Vec::new();
        for i in 0..4 {
            keys.push(register(c, base, &format!("bot {r}-{i}"), "bot").await);
        }
        let start = Instant::now();
        for k in &keys[..3] {
            queue(c, base, k).await;
        }
        let fourth = Instant::now();
        let t = queue(c, base, &keys[3]).await;
        assert_eq!(t["status"], "matched", "the fourth seats the table: {t}");
        last.push(fourth.elapsed());
        whole.push(start.elapsed());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    (whole, last)
}

/// Queues `4 × matches` fresh bots from `formers` tasks at once, racing
/// on the pool, and waits until every ticket is matched; the matches
/// formed per second, from the first queueing to the last ticket seen
/// matched (players registered beforehand), and the queueing requests
/// refused as busy (then retried).
async fn burst(c: &Client, base: &str, matches: u64, formers: u64) -> (f64, u64) {
    let mut keys = Vec::new();
    for i in 0..matches * 4 {
        keys.push(register(c, base, &format!("burst {i}"), "bot").await);
    }
    let start = Instant::now();
    let tasks: Vec<_> = (0..formers.max(1) as usize)
        .map(|f| {
            let (c, base) = (c.clone(), base.to_string());
            let mine: Vec<String> = keys
                .iter()
                .skip(f)
                .step_by(formers.max(1) as usize)
                .cloned()
                .collect();
            tokio::spawn(async move {
                let mut tickets = Vec::new();
                let body = json!({"variant": "pairs", "only_bots": true, "expires_in_s": 3600});
                let mut retries = 0u64;
                for key in mine {
                    // A pool write that lost too many races is refused
                    // as busy, to be retried: count those.
                    let url = format!("{base}/v1/queue");
                    let t = loop {
                        let (s, v) = post(&c, &url, Some(&key), body.clone()).await;
                        match s {
                            201 => break v,
                            503 if retries < 10_000 => retries += 1,
                            _ => panic!("queue: {s} {v}"),
                        }
                    };
                    tickets.push((key, t["ticket_id"].as_str().unwrap().to_string()));
                }
                for (key, id) in tickets {
                    let url = format!("{base}/v1/queue/{id}?wait_ms=5000");
                    loop {
                        let r = c.get(&url).bearer_auth(&key).send().await.expect("poll");
                        let t: Value = r.json().await.expect("a ticket");
                        if t["status"] == "matched" {
                            break;
                        }
                        assert_eq!(t["status"], "waiting", "{t}");
                    }
                }
                retries
            })
        })
        .collect();
    let mut retries = 0;
    for t in tasks {
        retries += t.await.expect("a former");
    }
    (matches as f64 / start.elapsed().as_secs_f64(), retries)
}

async fn run(base: String, tickets: usize, clients: usize, seconds: u64, n_rounds: u64) {
    let c = Client::builder()
        .pool_max_idle_per_host(256)
        .build()
        .expect("a client");
    let waiting = crowd(&c, &base, tickets).await;
    let stop = Arc::new(AtomicBool::new(false));
    let polls = Arc::new(AtomicU64::new(0));
    let pollers: Vec<_> = waiting
        .iter()
        .take(clients)
        .cloned()
        .map(|(key, id)| {
            let (c, url) = (c.clone(), format!("{base}/v1/queue/{id}"));
            let (stop, polls) = (stop.clone(), polls.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let r = c.get(&url).bearer_auth(&key).send().await.expect("poll");
                    assert_eq!(r.status().as_u16(), 200);
                    r.bytes().await.expect("a ticket");
                    polls.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    let health = {
        let (c, url, stop) = (c.clone(), format!("{base}/healthz"), stop.clone());
        tokio::spawn(async move {
            let mut lat = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                let r = c.get(&url).send().await.expect("healthz");
                r.bytes().await.expect("a body");
                lat.push(t.elapsed());
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            lat
        })
    };
    let start = Instant::now();
    let (whole, last) = rounds(&c, &base, n_rounds).await;
    let burst_matches = num::<u64>("--burst", 0);
    let burst_rate = if burst_matches > 0 {
        Some(burst(&c, &base, burst_matches, num::<u64>("--formers", 16)).await)
    } else {
        None
    };
    let left = Duration::from_secs(seconds).saturating_sub(start.elapsed());
    tokio::time::sleep(left).await;
    stop.store(true, Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    for p in pollers {
        p.await.expect("a poller");
    }
    let lat = health.await.expect("the health task");
    println!(
        "polls: {} clients, {:.0} polls/s over {elapsed:.1} s",
        clients,
        polls.load(Ordering::Relaxed) as f64 / elapsed
    );
    quantiles("/healthz", lat);
    quantiles("match: first queued to fourth answered (matched)", whole);
    quantiles("match: the fourth POST /v1/queue", last);
    if let Some((rate, retries)) = burst_rate {
        println!(
            "burst: {} matches from {} formers, {rate:.1} matches/s, {retries} busy retried",
            num::<u64>("--burst", 0),
            num::<u64>("--formers", 16)
        );
    }
}

fn main() {
    let base = arg("--url", "http://127.0.0.1:8080");
    let host = base
        .trim_start_matches("http://")
        .split([':', '/'])
        .next()
        .unwrap_or("");
    assert!(
        matches!(host, "127.0.0.1" | "localhost" | "[::1]"),
        "only loopback targets: {base}"
    );
    let tickets = num::<usize>("--tickets", 10_000);
    let clients = num::<usize>("--clients", 64);
    let seconds = num::<u64>("--seconds", 20);
    let n_rounds = num::<u64>("--rounds", 20);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(run(base, tickets, clients, seconds, n_rounds));
}
