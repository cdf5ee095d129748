//! `--mode play`: action throughput and latency.
//!
//! Creates the matches first (one remote seat against three random house
//! bots, dealt automatically, so each accepted action also plays the bots'
//! moves on the server), then `conns` workers each loop over their share of
//! the matches posting one legal action at a time to
//! `POST /v1/matches/{id}/actions`, taken from the previous answer (the
//! caller's new view). A finished match is replaced by a new one; creating
//! it is not timed. Only the action posts are timed.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};
use tokio::sync::Barrier;

use super::client::{Http, Outcome, Rng, Tally};

/// Options of the play mode.
pub struct PlayArgs {
    /// Server base URL.
    pub url: String,
    /// Concurrent workers (and connections).
    pub conns: usize,
    /// Matches in play at once.
    pub matches: usize,
    /// How long to post actions.
    pub seconds: f64,
    /// Stop after this many action posts in all.
    pub max_requests: u64,
    /// Redis to measure bytes per match in, if any.
    pub redis: Option<String>,
}

/// The body creating a match: seat 0 remote, three random house bots.
pub fn one_remote_body() -> Value {
    json!({
        "seats": [{"kind": "remote"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        "auto_deal": true
    })
}

struct Game {
    id: String,
    token: String,
    version: u64,
    actions: Vec<Value>,
}

fn legal(view: &Value) -> Vec<Value> {
    view["legal_actions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

async fn new_game(http: &Http) -> Result<Game, String> {
    let r = http
        .send(
            Method::POST,
            "/v1/matches",
            None,
            Some(&one_remote_body()),
            None,
        )
        .await?;
    if r.status != 201 {
        return Err(format!("{} {} (create)", r.status, r.body["code"]));
    }
    let id = r.body["match_id"]
        .as_str()
        .ok_or("no match_id")?
        .to_string();
    let token = r.body["tokens"][0]["token"]
        .as_str()
        .ok_or("no token")?
        .to_string();
    let mut g = Game {
        id,
        token,
        version: 0,
        actions: Vec::new(),
    };
    refresh(http, &mut g).await?;
    Ok(g)
}

/// Reads the caller's view again (untimed).
async fn refresh(http: &Http, g: &mut Game) -> Result<(), String> {
    let path = format!("/v1/matches/{}", g.id);
    let v = http
        .send(Method::GET, &path, Some(&g.token), None, None)
        .await?;
    if v.status != 200 {
        return Err(format!("{} {} (view)", v.status, v.body["code"]));
    }
    g.version = v.body["version"].as_u64().unwrap_or(0);
    g.actions = legal(&v.body);
    Ok(())
}

async fn worker(
    http: Http,
    share: usize,
    seed: u64,
    args: Arc<PlayArgs>,
    start: Arc<Barrier>,
    sent: Arc<AtomicU64>,
) -> Outcome {
    let mut t = Tally::default();
    let mut games = Vec::with_capacity(share);
    for _ in 0..share {
        match new_game(&http).await {
            Ok(g) => games.push(g),
            Err(e) => t.error(e),
        }
    }
    let mut finished = Vec::new();
    start.wait().await;
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let mut rng = Rng::new(seed);
    let mut i = 0usize;
    while !games.is_empty()
        && Instant::now() < deadline
        && sent.fetch_add(1, Ordering::Relaxed) < args.max_requests
    {
        let k = i % games.len();
        i += 1;
        let g = &mut games[k];
        if g.actions.is_empty() {
            t.error("no legal action for the remote seat".into());
            if refresh(&http, g).await.is_err() {
                games.swap_remove(k);
            }
            continue;
        }
        let action = g.actions[rng.below(g.actions.len())].clone();
        let path = format!("/v1/matches/{}/actions", g.id);
        let r = http
            .send(Method::POST, &path, Some(&g.token), Some(&action), None)
            .await;
        match r {
            Ok(r) if r.status == 200 => {
                t.latency(r.elapsed);
                t.actions += 1;
                let v = r.body["version"].as_u64().unwrap_or(g.version);
                t.moves += v.saturating_sub(g.version);
                g.version = v;
                if r.body["phase"] == "match_over" {
                    t.finished += 1;
                    finished.push(g.id.clone());
                    match new_game(&http).await {
                        Ok(n) => *g = n,
                        Err(e) => {
                            t.error(e);
                            games.swap_remove(k);
                        }
                    }
                } else {
                    g.actions = legal(&r.body);
                }
            }
            other => {
                match other {
                    Ok(r) => {
                        t.latency(r.elapsed);
                        t.bad_status("POST actions", &r);
                    }
                    Err(e) => t.error(e),
                }
                if let Err(e) = refresh(&http, g).await {
                    t.error(e);
                    games.swap_remove(k);
                }
            }
        }
    }
    let active = games.into_iter().map(|g| g.id).collect();
    Outcome {
        tally: t,
        active,
        finished,
    }
}

/// Runs the play mode and prints its report; `Ok(false)` when an
/// unexpected error happened.
///
/// # Errors
/// When the client cannot be built.
pub async fn run(args: PlayArgs) -> Result<bool, String> {
    let http = Http::new(&args.url, args.conns)?;
    let args = Arc::new(args);
    let conns = args.conns;
    let start = Arc::new(Barrier::new(conns + 1));
    let sent = Arc::new(AtomicU64::new(0));
    let created = Instant::now();
    let mut handles = Vec::with_capacity(conns);
    for w in 0..conns {
        let share = args.matches / conns + usize::from(w < args.matches % conns);
        handles.push(tokio::spawn(worker(
            http.clone(),
            share,
            w as u64 + 1,
            args.clone(),
            start.clone(),
            sent.clone(),
        )));
    }
    start.wait().await;
    let began = Instant::now();
    println!(
        "created {} matches in {:.1}s",
        args.matches,
        began.duration_since(created).as_secs_f64()
    );
    let Outcome {
        tally: mut total,
        active,
        finished,
    } = Outcome::join(handles, "worker").await?;
    let secs = began.elapsed().as_secs_f64();
    let requests = total.latency_us.len();
    println!(
        "mode=play conns={} matches={} seconds={secs:.1}",
        args.conns, args.matches
    );
    println!("requests={requests} (action POSTs, errors included)");
    println!("requests_per_second={:.0}", requests as f64 / secs);
    println!(
        "moves_per_second={:.0} (client actions plus the house bots' moves and deals they trigger)",
        total.moves as f64 / secs
    );
    println!("matches_finished={}", total.finished);
    println!("latency: {}", total.latency_line());
    println!("errors: {}", total.errors_line());
    if let Some(url) = &args.redis {
        super::redis_mem::report(url, &active, &finished).await?;
    }
    Ok(total.error_count() == 0)
}
