//! `--mode whole`: what a whole match costs the store, and the server's
//! speed on it.
//!
//! `conns` workers each play their share of `matches` whole matches with
//! four remote seats (every move a client request, dealing included),
//! passing every double: before each action the seat to act reads its view
//! (`GET /v1/matches/{id}`, timed as a view), then posts one of its legal
//! actions (timed as an action). Then, for `seconds`, the same workers
//! only read views of the finished matches.
//!
//! With `--redis`, the bytes Redis received (`INFO stats`
//! `total_net_input_bytes`) are measured over both phases: the views-only
//! phase gives the bytes one view sends, and the play phase's bytes minus
//! its views' are the bytes sent per action. `MEMORY USAGE` then gives
//! the bytes kept per finished match.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use super::client::{Code, Http, Rng, Tally};

/// The fields of a view (or an action's answer) a seat plays by; the rest
/// of the answer is skipped unread.
#[derive(Default, Deserialize)]
struct Brief {
    #[serde(default)]
    phase: String,
    #[serde(default)]
    turn: Option<u64>,
    #[serde(default)]
    legal_actions: Vec<Value>,
    #[serde(default)]
    code: Option<String>,
}

/// Options of the whole mode.
pub struct WholeArgs {
    /// Server base URL.
    pub url: String,
    /// Concurrent workers (and connections).
    pub conns: usize,
    /// Matches played to the end, in all.
    pub matches: usize,
    /// How long the views-only phase lasts.
    pub seconds: f64,
    /// Redis to measure bytes in, if any.
    pub redis: Option<String>,
}

/// What a worker measured, by kind of request.
#[derive(Default)]
struct Split {
    actions: Tally,
    views: Tally,
}

/// A worker's result.
struct Played {
    split: Split,
    finished: Vec<String>,
    /// One token of each finished match, to read its views.
    tokens: Vec<(String, String)>,
}

async fn new_match(http: &Http) -> Result<(String, Vec<String>), String> {
    let body = json!({"seats": [{"kind": "remote"}, {"kind": "remote"}, {"kind": "remote"}, {"kind": "remote"}]});
    let r = http
        .send(Method::POST, "/v1/matches", None, Some(&body), None)
        .await?;
    if r.status != 201 {
        return Err(format!("{} {} (create)", r.status, r.body["code"]));
    }
    let id = r.body["match_id"]
        .as_str()
        .ok_or("no match_id")?
        .to_string();
    let mut tokens = vec![String::new(); 4];
    for t in r.body["tokens"].as_array().ok_or("no tokens")? {
        let seat = t["seat"].as_u64().ok_or("no seat")? as usize;
        tokens[seat] = t["token"].as_str().ok_or("no token")?.to_string();
    }
    Ok((id, tokens))
}

/// Plays one match to the end; `false` when it stopped on an error.
async fn play_one(
    http: &Http,
    rng: &mut Rng,
    split: &mut Split,
    id: &str,
    tokens: &[String],
) -> bool {
    let view_path = format!("/v1/matches/{id}");
    let act_path = format!("/v1/matches/{id}/actions");
    let mut turn = 0usize;
    loop {
        let Some(token) = tokens.get(turn) else {
            split.views.error("turn out of range".into());
            return false;
        };
        let v = match http
            .send_as::<Brief>(Method::GET, &view_path, Some(token), None)
            .await
        {
            Ok(v) if v.status == 200 => v,
            Ok(v) => {
                split
                    .views
                    .bad_code("GET view", v.status, v.body.code.as_deref());
                return false;
            }
            Err(e) => {
                split.views.error(e);
                return false;
            }
        };
        split.views.latency(v.elapsed);
        if v.body.phase == "match_over" {
            split.actions.finished += 1;
            return true;
        }
        let legal = v.body.legal_actions;
        // The first dealer is drawn: follow the view's turn to it.
        if let Some(t) = v.body.turn.map(|t| t as usize)
            && legal.is_empty()
            && t != turn
        {
            turn = t;
            continue;
        }
        if legal.is_empty() {
            split
                .views
                .error("no legal action for the seat to act".into());
            return false;
        }
        // Pass every double; otherwise any legal action.
        let action = legal
            .iter()
            .find(|a| a["type"] == "double" && a["call"] == "pass")
            .cloned()
            .unwrap_or_else(|| legal[rng.below(legal.len())].clone());
        match http
            .send_as::<Brief>(Method::POST, &act_path, Some(token), Some(&action))
            .await
        {
            Ok(r) if r.status == 200 => {
                split.actions.latency(r.elapsed);
                split.actions.actions += 1;
                turn = r.body.turn.map_or(0, |t| t as usize);
                if r.body.phase == "match_over" {
                    split.actions.finished += 1;
                    return true;
                }
            }
            Ok(r) => {
                split
                    .actions
                    .bad_code("POST actions", r.status, r.body.code.as_deref());
                return false;
            }
            Err(e) => {
                split.actions.error(e);
                return false;
            }
        }
    }
}

async fn player(http: Http, share: usize, seed: u64) -> Played {
    let mut split = Split::default();
    let mut rng = Rng::new(seed);
    let mut finished = Vec::new();
    let mut tokens = Vec::new();
    for _ in 0..share {
        match new_match(&http).await {
            Ok((id, seat_tokens)) => {
                if play_one(&http, &mut rng, &mut split, &id, &seat_tokens).await {
                    tokens.push((id.clone(), seat_tokens[0].clone()));
                    finished.push(id);
                }
            }
            Err(e) => split.actions.error(e),
        }
    }
    Played {
        split,
        finished,
        tokens,
    }
}

async fn reader(
    http: Http,
    matches: Arc<Vec<(String, String)>>,
    first: usize,
    until: Instant,
) -> Tally {
    let mut t = Tally::default();
    let mut i = first;
    while Instant::now() < until && !matches.is_empty() {
        let (id, token) = &matches[i % matches.len()];
        i += 1;
        match http
            .send_as::<Code>(Method::GET, &format!("/v1/matches/{id}"), Some(token), None)
            .await
        {
            Ok(v) if v.status == 200 => t.latency(v.elapsed),
            Ok(v) => t.bad_code("GET view", v.status, v.body.code.as_deref()),
            Err(e) => t.error(e),
        }
    }
    t
}

/// Bytes Redis has received since it started.
async fn bytes_in(url: &str) -> Result<u64, String> {
    let client = redis::Client::open(url).map_err(|e| format!("Redis URL: {e}"))?;
    let mut con = client
        .get_multiplexed_async_connection()
        .await
        .map_err(|e| format!("Redis: {e}"))?;
    let info: String = redis::cmd("INFO")
        .arg("stats")
        .query_async(&mut con)
        .await
        .map_err(|e| format!("INFO: {e}"))?;
    info.lines()
        .find_map(|l| l.strip_prefix("total_net_input_bytes:"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| "no total_net_input_bytes in INFO stats".into())
}

/// Runs the whole mode and prints its report; `Ok(false)` when an
/// unexpected error happened.
///
/// # Errors
/// When the client cannot be built or Redis cannot be read.
pub async fn run(args: WholeArgs) -> Result<bool, String> {
    let http = Http::new(&args.url, args.conns)?;
    let in0 = match &args.redis {
        Some(url) => Some(bytes_in(url).await?),
        None => None,
    };
    let began = Instant::now();
    let mut handles = Vec::with_capacity(args.conns);
    for w in 0..args.conns {
        let share = args.matches / args.conns + usize::from(w < args.matches % args.conns);
        handles.push(tokio::spawn(player(http.clone(), share, w as u64 + 1)));
    }
    let mut split = Split::default();
    let mut finished = Vec::new();
    let mut tokens = Vec::new();
    for h in handles {
        let p = h.await.map_err(|e| format!("player: {e}"))?;
        split.actions.merge(p.split.actions);
        split.views.merge(p.split.views);
        finished.extend(p.finished);
        tokens.extend(p.tokens);
    }
    let play_secs = began.elapsed().as_secs_f64();
    let in1 = match &args.redis {
        Some(url) => Some(bytes_in(url).await?),
        None => None,
    };

    let tokens = Arc::new(tokens);
    let until = Instant::now() + Duration::from_secs_f64(args.seconds);
    let read_began = Instant::now();
    let readers: Vec<_> = (0..args.conns)
        .map(|w| tokio::spawn(reader(http.clone(), tokens.clone(), w * 7, until)))
        .collect();
    let mut reads = Tally::default();
    for r in readers {
        reads.merge(r.await.map_err(|e| format!("reader: {e}"))?);
    }
    let read_secs = read_began.elapsed().as_secs_f64();
    let in2 = match &args.redis {
        Some(url) => Some(bytes_in(url).await?),
        None => None,
    };

    let (actions, play_views) = (split.actions.actions, split.views.latency_us.len() as u64);
    println!(
        "mode=whole conns={} matches={} finished={} play_seconds={play_secs:.1}",
        args.conns,
        args.matches,
        finished.len()
    );
    println!(
        "play: actions={actions} actions_per_second={:.0} views={play_views} (one before each action)",
        actions as f64 / play_secs
    );
    println!("play actions latency: {}", split.actions.latency_line());
    println!("play views latency: {}", split.views.latency_line());
    let views = reads.latency_us.len() as u64;
    println!(
        "views_only: views={views} views_per_second={:.0} seconds={read_secs:.1} (finished matches)",
        views as f64 / read_secs
    );
    println!("views_only latency: {}", reads.latency_line());
    if let (Some(a), Some(b), Some(c)) = (in0, in1, in2)
        && views > 0
        && actions > 0
    {
        let per_view = (c - b) as f64 / views as f64;
        let play_bytes = (b - a) as f64;
        let per_action = (play_bytes - per_view * play_views as f64) / actions as f64;
        println!(
            "redis_bytes_in: per_view={per_view:.0} per_action={per_action:.0} per_match={:.0} (play phase {play_bytes:.0} bytes, creates included)",
            play_bytes / finished.len().max(1) as f64
        );
    }
    let errors = split.actions.error_count() + split.views.error_count() + reads.error_count();
    println!(
        "errors: actions {}; views {}; views_only {}",
        split.actions.errors_line(),
        split.views.errors_line(),
        reads.errors_line()
    );
    if let Some(url) = &args.redis {
        super::redis_mem::report(url, &[], &finished).await?;
    }
    Ok(errors == 0)
}
