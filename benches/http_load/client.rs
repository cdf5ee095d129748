//! A thin HTTP client for the load tool, and the tallies it reports.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use botifarra::rules::random::SplitMix64;
use rand::RngExt;
use reqwest::Method;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// An answer: status, JSON body (`Null` when not JSON) and round-trip time.
pub struct Resp {
    /// HTTP status.
    pub status: u16,
    /// The body as JSON.
    pub body: Value,
    /// From sending the request to having read the whole body.
    pub elapsed: Duration,
}

/// An answer read as a `T`: status, body and round-trip time.
pub struct RespOf<T> {
    /// HTTP status.
    pub status: u16,
    /// The body as a `T`.
    pub body: T,
    /// From sending the request to having read the whole body.
    pub elapsed: Duration,
}

/// The fields of an error answer the tallies name.
#[derive(Default, Deserialize)]
pub struct Code {
    /// The problem's code.
    #[serde(default)]
    pub code: Option<String>,
}

/// A pooled HTTP/1.1 client for one server.
#[derive(Clone)]
pub struct Http {
    client: reqwest::Client,
    base: String,
}

impl Http {
    /// A client for `base` (`http://127.0.0.1:PORT`) keeping up to `conns`
    /// idle connections open.
    pub fn new(base: &str, conns: usize) -> Result<Http, String> {
        let client = reqwest::Client::builder()
            .no_proxy()
            .tcp_nodelay(true)
            .pool_max_idle_per_host(conns)
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        Ok(Http {
            client,
            base: base.trim_end_matches('/').to_string(),
        })
    }

    /// The server's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Sends one request and reads the body as a `T` (its `Default` when
    /// it is not one, an error answer say): cheaper than a whole
    /// [`Value`] when only a few fields matter, so that the tool spends
    /// little of the machine the server shares with it. `Err` only when no
    /// HTTP answer came back.
    pub async fn send_as<T: DeserializeOwned + Default>(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<RespOf<T>, String> {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        let start = Instant::now();
        let resp = req.send().await.map_err(|e| transport(&e))?;
        let status = resp.status().as_u16();
        let bytes = resp.bytes().await.map_err(|e| transport(&e))?;
        let elapsed = start.elapsed();
        let body = serde_json::from_slice(&bytes).unwrap_or_default();
        Ok(RespOf {
            status,
            body,
            elapsed,
        })
    }

    /// Sends one request; `Err` only when no HTTP answer came back.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        idempotency_key: Option<&str>,
    ) -> Result<Resp, String> {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(k) = idempotency_key {
            req = req.header("Idempotency-Key", k);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        let start = Instant::now();
        let resp = req.send().await.map_err(|e| transport(&e))?;
        let status = resp.status().as_u16();
        let bytes = resp.bytes().await.map_err(|e| transport(&e))?;
        let elapsed = start.elapsed();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok(Resp {
            status,
            body,
            elapsed,
        })
    }
}

fn transport(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "transport: timeout".into()
    } else if e.is_connect() {
        "transport: connect".into()
    } else {
        "transport: other".into()
    }
}

/// What one worker saw; merged into one at the end.
#[derive(Default)]
pub struct Tally {
    /// Latency of each timed request, in microseconds.
    pub latency_us: Vec<u32>,
    /// Unexpected answers, by `"<status> <code>"` (or a transport failure).
    pub errors: BTreeMap<String, u64>,
    /// `503` answers that were retried.
    pub retried_503: u64,
    /// Actions the clients posted and the server accepted.
    pub actions: u64,
    /// Matches played to the end.
    pub finished: u64,
    /// Match versions advanced (client and server-side moves and deals).
    pub moves: u64,
    /// Matches whose history replayed to the same record.
    pub verified: u64,
    /// Replay or consistency failures, with the reason.
    pub mismatches: Vec<String>,
}

impl Tally {
    /// Notes a timed request.
    pub fn latency(&mut self, d: Duration) {
        self.latency_us
            .push(u32::try_from(d.as_micros()).unwrap_or(u32::MAX));
    }

    /// Notes an unexpected answer.
    pub fn error(&mut self, what: String) {
        *self.errors.entry(what).or_default() += 1;
    }

    /// Notes an unexpected HTTP answer to `what` (`POST actions`, say).
    pub fn bad_status(&mut self, what: &str, r: &Resp) {
        let code = r.body["code"].as_str().unwrap_or("-");
        self.error(format!("{} {code} ({what})", r.status));
    }

    /// Notes an unexpected answer to `what`, read as `code`.
    pub fn bad_code(&mut self, what: &str, status: u16, code: Option<&str>) {
        self.error(format!("{status} {} ({what})", code.unwrap_or("-")));
    }

    /// Adds another worker's tally.
    pub fn merge(&mut self, o: Tally) {
        self.latency_us.extend(o.latency_us);
        for (k, v) in o.errors {
            *self.errors.entry(k).or_default() += v;
        }
        self.retried_503 += o.retried_503;
        self.actions += o.actions;
        self.finished += o.finished;
        self.moves += o.moves;
        self.verified += o.verified;
        self.mismatches.extend(o.mismatches);
    }

    /// Unexpected errors, all kinds together.
    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// `p50=… p90=… p99=… max=…` in milliseconds.
    pub fn latency_line(&mut self) -> String {
        self.latency_us.sort_unstable();
        let n = self.latency_us.len();
        if n == 0 {
            return "no timed requests".into();
        }
        let at = |q: f64| {
            let i = ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
            f64::from(self.latency_us[i]) / 1000.0
        };
        format!(
            "p50={:.2}ms p90={:.2}ms p99={:.2}ms max={:.2}ms",
            at(0.50),
            at(0.90),
            at(0.99),
            at(1.0)
        )
    }

    /// `none`, or `"<what>"=count, …`.
    pub fn errors_line(&self) -> String {
        if self.errors.is_empty() {
            return "none".into();
        }
        let parts: Vec<String> = self
            .errors
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        parts.join("; ")
    }
}

/// What one worker or client hands back: its tally and the matches it left
/// in progress or saw finish.
pub struct Outcome {
    pub tally: Tally,
    pub active: Vec<String>,
    pub finished: Vec<String>,
}

impl Outcome {
    /// Waits for every task (`what` names them in errors) and merges what
    /// they hand back.
    pub async fn join(
        handles: Vec<tokio::task::JoinHandle<Outcome>>,
        what: &str,
    ) -> Result<Outcome, String> {
        let mut all = Outcome {
            tally: Tally::default(),
            active: Vec::new(),
            finished: Vec::new(),
        };
        for h in handles {
            let o = h.await.map_err(|e| format!("{what}: {e}"))?;
            all.tally.merge(o.tally);
            all.active.extend(o.active);
            all.finished.extend(o.finished);
        }
        Ok(all)
    }
}

/// The library's small generator, for choosing among legal actions.
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }
}
