//! HTTP load and soak tool for a running server (`benches/http_load.sh` and
//! `benches/soak.sh` start one and call this).
//!
//! ```text
//! cargo bench --bench http_load -- --mode play --url http://127.0.0.1:8080 \
//!     --conns 64 --matches 1000 --seconds 30 [--redis redis://127.0.0.1:6379/]
//! cargo bench --bench http_load -- --mode soak --url http://127.0.0.1:8080 \
//!     --bots 256 --seconds 120 [--redis redis://127.0.0.1:6379/]
//! ```
//!
//! - `play`: action throughput and latency (see `http_load/play.rs`).
//! - `soak`: whole matches by many clients, 503s retried with the same
//!   `Idempotency-Key`, every finished match replayed with the engine (see
//!   `http_load/soak.rs` and `http_load/replay.rs`).
//! - `--redis`: also report the bytes Redis holds per active and per
//!   finished match.
//!
//! Only loopback addresses are accepted as targets. The tool exits with
//! status 1 when an unexpected error or a replay mismatch happened, 2 on
//! bad flags.

#[path = "http_load/client.rs"]
mod client;
#[path = "http_load/play.rs"]
mod play;
#[path = "http_load/redis_mem.rs"]
mod redis_mem;
#[path = "http_load/replay.rs"]
mod replay;
#[path = "http_load/soak.rs"]
mod soak;

use std::process::ExitCode;

const USAGE: &str = "usage: http_load --mode play|soak --url http://127.0.0.1:PORT \
[--conns N] [--matches N] [--bots N] [--seconds S] [--max-requests N] [--threads N] [--redis URL]";

/// The parsed command line.
struct Flags {
    mode: String,
    url: String,
    conns: usize,
    matches: usize,
    bots: usize,
    seconds: f64,
    max_requests: u64,
    threads: usize,
    redis: Option<String>,
}

fn parse(args: &[String]) -> Result<Flags, String> {
    let mut f = Flags {
        mode: String::new(),
        url: "http://127.0.0.1:8080".into(),
        conns: 64,
        matches: 1000,
        bots: 256,
        seconds: 30.0,
        max_requests: 50_000_000,
        threads: 2,
        redis: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        // cargo passes `--bench` to every bench target.
        if flag == "--bench" {
            continue;
        }
        let mut value = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        let num = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match flag.as_str() {
            "--mode" => f.mode = value()?,
            "--url" => f.url = value()?,
            "--conns" => f.conns = num(value()?)? as usize,
            "--matches" => f.matches = num(value()?)? as usize,
            "--bots" => f.bots = num(value()?)? as usize,
            "--max-requests" => f.max_requests = num(value()?)?,
            "--threads" => f.threads = num(value()?)? as usize,
            "--seconds" => {
                let v = value()?;
                f.seconds = v
                    .parse()
                    .map_err(|_| format!("--seconds: not a number: {v}"))?;
            }
            "--redis" => f.redis = Some(value()?),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if f.mode != "play" && f.mode != "soak" {
        return Err("--mode must be play or soak".into());
    }
    for url in std::iter::once(&f.url).chain(&f.redis) {
        if !is_loopback(url) {
            return Err(format!("{url} is not a loopback address"));
        }
    }
    if !(f.seconds > 0.0 && f.seconds <= 3600.0) {
        return Err("--seconds must be above 0 and at most 3600".into());
    }
    if f.conns == 0 || f.bots == 0 || f.threads == 0 {
        return Err("--conns, --bots and --threads must be at least 1".into());
    }
    Ok(f)
}

/// Whether `url` (`scheme://host[:port]/…`) points at this machine, the
/// only allowed target.
fn is_loopback(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let host = rest.split(['/', '?']).next().unwrap_or("");
    let host = match host.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host,
    };
    host == "localhost"
        || host == "[::1]"
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|a| a.is_loopback())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags = match parse(&args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("http_load: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(flags.threads)
        .enable_all()
        .build();
    let rt = match runtime {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("http_load: runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = rt.block_on(async move {
        if flags.mode == "play" {
            play::run(play::PlayArgs {
                url: flags.url,
                conns: flags.conns,
                matches: flags.matches,
                seconds: flags.seconds,
                max_requests: flags.max_requests,
                redis: flags.redis,
            })
            .await
        } else {
            soak::run(soak::SoakArgs {
                url: flags.url,
                bots: flags.bots,
                seconds: flags.seconds,
                redis: flags.redis,
            })
            .await
        }
    });
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("http_load: FAILED (unexpected errors or mismatches above)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("http_load: {e}");
            ExitCode::FAILURE
        }
    }
}
