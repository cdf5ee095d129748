//! `--mode reads`: a read-only load on matches whose work is due, and the
//! store writes it causes (none are expected).
//!
//! `matches` matches are created, half with one silent client seat on a
//! 100 ms move clock and three house bots, half with four house bots
//! dealing automatically, so that every one of them has a bot's move, a
//! deal or an expired clock due. Then, for `seconds`, `conns` workers
//! read them in turn: the view (with the seat's token for the clocked
//! ones), the legal moves and the events. The store's write round trips
//! (`botifarra_store_round_trips_total` for `commit`, `create`,
//! `schedule` and `claim_due`, and `botifarra_store_commits_total`) are
//! read from `/metrics` before and after the reads.
//!
//! Against a server started with `--no-scheduler`, nothing but requests
//! could write: the report shows the reads per second, their latency,
//! and that the write counters did not move (the tool fails otherwise).
//! Against a server with its scheduler, the counters move by what the
//! scheduler plays, whatever the number of reads (and the tool, which
//! expects none, reports them and fails).

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};

use super::client::{Http, Tally};

/// Options of the reads mode.
pub struct ReadsArgs {
    /// Server base URL.
    pub url: String,
    /// Concurrent readers (and connections).
    pub conns: usize,
    /// Matches created, then read.
    pub matches: usize,
    /// How long the reads last.
    pub seconds: f64,
}

/// The store counters a write moves, from the server's `/metrics` text.
fn write_counters(metrics: &str) -> Vec<(String, f64)> {
    let wanted = |line: &str| {
        line.starts_with("botifarra_store_commits_total")
            || (line.starts_with("botifarra_store_round_trips_total")
                && ["commit", "create", "schedule", "claim_due"]
                    .iter()
                    .any(|op| line.contains(&format!("op=\"{op}\""))))
    };
    metrics
        .lines()
        .filter(|l| wanted(l))
        .filter_map(|l| {
            let (name, value) = l.rsplit_once(' ')?;
            Some((name.to_string(), value.parse().ok()?))
        })
        .collect()
}

async fn metrics(http: &Http) -> Result<Vec<(String, f64)>, String> {
    let r = reqwest::get(format!("{}/metrics", http.base()))
        .await
        .map_err(|e| format!("/metrics: {e}"))?;
    let text = r.text().await.map_err(|e| format!("/metrics: {e}"))?;
    Ok(write_counters(&text))
}

/// Creates the matches: `(id, token)` each, the token for clocked ones.
async fn create(http: &Http, n: usize) -> Result<Vec<(String, Option<String>)>, String> {
    let bot = json!({"kind": "bot", "bot": "random"});
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let body = if i % 2 == 0 {
            json!({"seats": [{}, bot, bot, bot], "move_timeout_ms": 100,
                   "rules": {"first_dealer": 0}})
        } else {
            json!({"seats": [bot, bot, bot, bot], "auto_deal": true})
        };
        let r = http
            .send(Method::POST, "/v1/matches", None, Some(&body), None)
            .await?;
        if r.status != 201 {
            return Err(format!("create: {} {}", r.status, r.body));
        }
        let id = r.body["match_id"].as_str().unwrap_or_default().to_string();
        let token = r.body["seats"][0]["token"].as_str().map(str::to_owned);
        out.push((id, if i % 2 == 0 { token } else { None }));
    }
    Ok(out)
}

/// One reader: every match in turn, three reads each, until `end`.
async fn reader(
    http: Http,
    matches: std::sync::Arc<Vec<(String, Option<String>)>>,
    first: usize,
    end: Instant,
) -> Tally {
    let mut tally = Tally::default();
    let mut i = first;
    while Instant::now() < end {
        let (id, token) = &matches[i % matches.len()];
        // A seat's legal moves need its token; the history does not.
        let second = if token.is_some() {
            "/legal-moves"
        } else {
            "/history"
        };
        for path in ["", second, "/events?after=0&limit=20"] {
            let what = format!("/v1/matches/{{id}}{path}");
            match http
                .send_as::<Value>(
                    Method::GET,
                    &format!("/v1/matches/{id}{path}"),
                    token.as_deref(),
                    None,
                )
                .await
            {
                Ok(r) if r.status == 200 => {
                    tally.latency(r.elapsed);
                    tally.actions += 1;
                }
                Ok(r) => tally.bad_code(&what, r.status, r.body["code"].as_str()),
                Err(e) => tally.error(e),
            }
        }
        i += 1;
    }
    tally
}

/// Runs the reads mode; `Ok(false)` when reads failed or, with the
/// scheduler off, the write counters moved.
pub async fn run(a: ReadsArgs) -> Result<bool, String> {
    let http = Http::new(&a.url, a.conns)?;
    let matches = std::sync::Arc::new(create(&http, a.matches).await?);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = metrics(&http).await?;
    let started = Instant::now();
    let end = started + Duration::from_secs_f64(a.seconds);
    let workers: Vec<_> = (0..a.conns)
        .map(|w| tokio::spawn(reader(http.clone(), matches.clone(), w * 7, end)))
        .collect();
    let mut tally = Tally::default();
    for w in workers {
        tally.merge(w.await.map_err(|e| format!("reader: {e}"))?);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let after = metrics(&http).await?;
    println!(
        "reads: {} matches (half clocked at 100 ms, half four bots), {} readers, {:.1} s",
        a.matches, a.conns, elapsed
    );
    let latency = tally.latency_line();
    println!(
        "reads: {} reads, {:.0}/s, {latency}; errors: {}",
        tally.actions,
        tally.actions as f64 / elapsed,
        tally.errors_line()
    );
    // A counter missing from a scrape has never moved (0); one that
    // appears only after the reads moved.
    let mut names: Vec<&String> = before.iter().chain(&after).map(|(n, _)| n).collect();
    names.sort();
    names.dedup();
    let value = |list: &[(String, f64)], name: &str| {
        list.iter()
            .find(|(n, _)| n == name)
            .map_or(0.0, |(_, v)| *v)
    };
    let mut moved = false;
    for name in names {
        let (was, now) = (value(&before, name), value(&after, name));
        println!("reads: {name}: {was} -> {now}");
        moved |= now != was;
    }
    if before.is_empty() {
        println!("reads: no write counter in /metrics (nothing was ever written?)");
    }
    println!(
        "reads: the store's write counters {}",
        if moved { "MOVED" } else { "did not move" }
    );
    Ok(tally.error_count() == 0 && !moved)
}
