//! `--mode soak`: many clients playing whole matches until time is up,
//! every finished match checked against an engine replay.
//!
//! Client `k` plays all four seats of its matches when `k` is even (every
//! move is a request: `GET …/legal-moves` with the token of the seat to act,
//! then `POST …/actions`), and seat 0 against three random house bots when
//! `k` is odd (one request per turn; the answer already lists the next
//! legal actions). Every action carries an `Idempotency-Key`; a `503` is
//! retried with backoff and the same key, so a retry is safe even when the
//! first attempt was applied. Anything else but `200`/`201` is an
//! unexpected error.

use std::time::{Duration, Instant};

use botifarra::rules::{Action, Seat};
use reqwest::Method;
use serde_json::{Value, json};

use super::client::{Http, Outcome, Rng, Tally};
use super::replay;

/// Options of the soak mode.
pub struct SoakArgs {
    /// Server base URL.
    pub url: String,
    /// Concurrent clients.
    pub bots: usize,
    /// How long to start new moves.
    pub seconds: f64,
    /// Redis to measure bytes per match in, if any.
    pub redis: Option<String>,
}

/// How long past the end a request keeps retrying `503`s before giving up.
const GRACE: Duration = Duration::from_secs(60);

/// A match a client is playing.
struct Live {
    id: String,
    tokens: Vec<Option<String>>,
    remote: Vec<Seat>,
    posted: Vec<(Seat, Action)>,
    version: u64,
}

struct Client {
    http: Http,
    t: Tally,
    stop: Instant,
    rng: Rng,
}

impl Client {
    /// One request, retrying `503` (and lost connections) with backoff and
    /// the same idempotency key; `None` after an unexpected answer.
    async fn call(
        &mut self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        key: Option<&str>,
    ) -> Option<Value> {
        let mut backoff = Duration::from_millis(50);
        loop {
            match self.http.send(method.clone(), path, token, body, key).await {
                Ok(r) if r.status == 200 || r.status == 201 => {
                    self.t.latency(r.elapsed);
                    return Some(r.body);
                }
                Ok(r) if r.status == 503 => self.t.retried_503 += 1,
                Ok(r) => {
                    self.t
                        .bad_status(&format!("{method} {}", route_of(path)), &r);
                    return None;
                }
                Err(e) => self.t.error(e),
            }
            if Instant::now() > self.stop + GRACE {
                self.t
                    .error(format!("gave up retrying {method} {}", route_of(path)));
                return None;
            }
            let jitter = Duration::from_millis(self.rng.below(50) as u64);
            tokio::time::sleep(backoff + jitter).await;
            backoff = (backoff * 2).min(Duration::from_secs(2));
        }
    }

    async fn create(&mut self, four_remote: bool) -> Option<(Live, Value)> {
        let body = if four_remote {
            json!({"auto_deal": true})
        } else {
            super::play::one_remote_body()
        };
        let r = self
            .call(Method::POST, "/v1/matches", None, Some(&body), None)
            .await?;
        let id = r["match_id"].as_str()?.to_string();
        let mut tokens = vec![None; 4];
        for t in r["tokens"].as_array()? {
            tokens[t["seat"].as_u64()? as usize] = Some(t["token"].as_str()?.to_string());
        }
        let remote = (0..4u8).filter(|&s| tokens[s as usize].is_some()).collect();
        let version = r["view"]["version"].as_u64().unwrap_or(0);
        let live = Live {
            id,
            tokens,
            remote,
            posted: Vec::new(),
            version,
        };
        Some((live, r["view"].clone()))
    }

    /// Plays `m` until it is over (`true`) or time is up (`false`).
    async fn play(&mut self, m: &mut Live, mut view: Value) -> bool {
        // `view` is the last answer; `whose` the seat it was shown to.
        let mut whose: Option<Seat> = None;
        let mut failures = 0;
        loop {
            if view["phase"] == "match_over" {
                return true;
            }
            if Instant::now() >= self.stop || failures > 3 {
                return false;
            }
            let Some(turn) = view["turn"].as_u64().map(|s| s as Seat) else {
                return false;
            };
            let Some(token) = m.tokens.get(turn as usize).cloned().flatten() else {
                self.t.error("the turn is on a seat without a token".into());
                return false;
            };
            let actions = if whose == Some(turn) {
                view["legal_actions"].clone()
            } else {
                let path = format!("/v1/matches/{}/legal-moves", m.id);
                match self
                    .call(Method::GET, &path, Some(&token), None, None)
                    .await
                {
                    Some(l) if l["turn"] == turn => l["actions"].clone(),
                    _ => Value::Null,
                }
            };
            let n = actions.as_array().map_or(0, Vec::len);
            // Nothing to post, or the post failed: read the match again.
            let answer = if n == 0 {
                None
            } else {
                let action = actions[self.rng.below(n)].clone();
                let parsed: Action = match serde_json::from_value(action.clone()) {
                    Ok(a) => a,
                    Err(e) => {
                        self.t
                            .error(format!("listed action {action} does not parse: {e}"));
                        return false;
                    }
                };
                let key = format!("{}-{}", m.id, m.posted.len());
                let path = format!("/v1/matches/{}/actions", m.id);
                self.call(Method::POST, &path, Some(&token), Some(&action), Some(&key))
                    .await
                    .map(|v| (parsed, v))
            };
            match answer {
                Some((parsed, v)) => {
                    m.posted.push((turn, parsed));
                    self.t.actions += 1;
                    let version = v["version"].as_u64().unwrap_or(0);
                    if version <= m.version {
                        self.t.mismatches.push(format!(
                            "{}: version went from {} to {version}",
                            m.id, m.version
                        ));
                    }
                    self.t.moves += version.saturating_sub(m.version);
                    m.version = version;
                    (view, whose) = (v, Some(turn));
                }
                None => {
                    failures += 1;
                    let path = format!("/v1/matches/{}", m.id);
                    let Some(v) = self
                        .call(Method::GET, &path, Some(&token), None, None)
                        .await
                    else {
                        return false;
                    };
                    (view, whose) = (v, Some(turn));
                }
            }
        }
    }

    /// Reads the match back and checks it; `finished` selects the check.
    async fn verify(&mut self, m: &Live, finished: bool) {
        let token = m.tokens[m.remote[0] as usize].clone();
        let view_path = format!("/v1/matches/{}", m.id);
        let Some(v) = self
            .call(Method::GET, &view_path, token.as_deref(), None, None)
            .await
        else {
            self.t
                .mismatches
                .push(format!("{}: the view cannot be read", m.id));
            return;
        };
        let history_path = format!("/v1/matches/{}/history", m.id);
        let Some(h) = self
            .call(Method::GET, &history_path, None, None, None)
            .await
        else {
            self.t
                .mismatches
                .push(format!("{}: the history cannot be read", m.id));
            return;
        };
        let version = v["version"].as_u64().unwrap_or(0);
        let result = if version < m.version {
            Err(format!(
                "an acknowledged move was lost: version {version} < {}",
                m.version
            ))
        } else if v["scores"] != h["scores"] {
            Err(format!(
                "view scores {} but history scores {}",
                v["scores"], h["scores"]
            ))
        } else if finished {
            replay::check_finished(&h, &m.remote, &m.posted)
        } else {
            replay::check_in_progress(&h, &m.remote, &m.posted)
        };
        match result {
            Ok(()) if finished => self.t.verified += 1,
            Ok(()) => {}
            Err(e) => self.t.mismatches.push(format!("{}: {e}", m.id)),
        }
    }
}

/// The route pattern of a path, for error labels.
fn route_of(path: &str) -> String {
    let mut parts: Vec<&str> = path.split('/').collect();
    if parts.len() > 3 && parts[1] == "v1" && parts[2] == "matches" {
        parts[3] = "{id}";
    }
    parts.join("/")
}

async fn client(http: Http, k: usize, stop: Instant) -> Outcome {
    let mut c = Client {
        http,
        t: Tally::default(),
        stop,
        rng: Rng::new(k as u64 + 7),
    };
    let (mut active, mut finished) = (Vec::new(), Vec::new());
    while Instant::now() < stop {
        let Some((mut m, view)) = c.create(k.is_multiple_of(2)).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let over = c.play(&mut m, view).await;
        c.verify(&m, over).await;
        if over {
            c.t.finished += 1;
            finished.push(m.id);
        } else {
            active.push(m.id);
        }
    }
    Outcome {
        tally: c.t,
        active,
        finished,
    }
}

/// Runs the soak mode and prints its report; `Ok(false)` when an
/// unexpected error or a mismatch happened.
///
/// # Errors
/// When the client cannot be built.
pub async fn run(args: SoakArgs) -> Result<bool, String> {
    let http = Http::new(&args.url, args.bots)?;
    let began = Instant::now();
    let stop = began + Duration::from_secs_f64(args.seconds);
    let handles: Vec<_> = (0..args.bots)
        .map(|k| tokio::spawn(client(http.clone(), k, stop)))
        .collect();
    let Outcome {
        tally: mut total,
        active,
        finished,
    } = Outcome::join(handles, "client").await?;
    let secs = began.elapsed().as_secs_f64();
    println!("mode=soak bots={} seconds={secs:.1}", args.bots);
    println!(
        "matches_completed={} (and {} in progress at the end, each read back and checked)",
        total.finished,
        active.len()
    );
    println!(
        "requests={} ({:.0}/s, 503 retries excluded)",
        total.latency_us.len(),
        total.latency_us.len() as f64 / secs
    );
    println!(
        "client_actions={} ({:.0}/s)",
        total.actions,
        total.actions as f64 / secs
    );
    println!(
        "moves_per_second={:.0} (every version step: client actions, house-bot moves, deals)",
        total.moves as f64 / secs
    );
    println!("latency (all 200/201 answers): {}", total.latency_line());
    println!("retried_503={}", total.retried_503);
    println!(
        "unexpected_errors={} ({})",
        total.error_count(),
        total.errors_line()
    );
    println!(
        "matches_verified_by_replay={} of {}",
        total.verified, total.finished
    );
    println!("mismatches={}", total.mismatches.len());
    for m in total.mismatches.iter().take(20) {
        println!("  mismatch: {m}");
    }
    if let Some(url) = &args.redis {
        super::redis_mem::report(url, &active, &finished).await?;
    }
    Ok(total.error_count() == 0 && total.mismatches.is_empty() && total.verified == total.finished)
}
