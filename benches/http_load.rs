//! HTTP load and soak tool for a running server (`scripts/bench/http_load.sh` and
//! `scripts/bench/soak.sh` start one and call this).
//!
//! ```text
//! cargo bench --bench http_load -- --mode play --url http://127.0.0.1:8080 \
//!     --conns 64 --matches 1000 --seconds 30 [--redis redis://127.0.0.1:6379/]
//! cargo bench --bench http_load -- --mode soak --url http://127.0.0.1:8080 \
//!     --bots 256 --seconds 120 [--redis redis://127.0.0.1:6379/]
//! cargo bench --bench http_load -- --mode whole --url http://127.0.0.1:8080 \
//!     --conns 64 --matches 64 --seconds 10 [--redis redis://127.0.0.1:6379/]
//! cargo bench --bench http_load -- --mode reads --url http://127.0.0.1:8080 \
//!     --conns 32 --matches 200 --seconds 10
//! ```
//!
//! - `play`: action throughput and latency (see `http_load/play.rs`).
//! - `soak`: whole matches by many clients, 503s retried with the same
//!   `Idempotency-Key`, every finished match replayed with the engine (see
//!   `http_load/soak.rs` and `http_load/replay.rs`).
//! - `whole`: whole matches of four remote seats, then views only: actions
//!   and views per second, latency, bytes sent to Redis per action and
//!   kept per finished match (see `http_load/whole.rs`).
//! - `reads`: reads only, of matches whose bots, deals and clocks are
//!   due, against a server started with `--no-scheduler`: reads per
//!   second, and the store's write counters before and after (which must
//!   not move; see `http_load/reads.rs`).
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
#[path = "http_load/reads.rs"]
mod reads;
#[path = "http_load/redis_mem.rs"]
mod redis_mem;
#[path = "http_load/replay.rs"]
mod replay;
#[path = "http_load/soak.rs"]
mod soak;
#[path = "http_load/whole.rs"]
mod whole;

use std::process::ExitCode;

// The server's allocator: the tool shares the machine with the server, so
// it should spend as little as it can per request.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, ValueEnum};

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Action throughput and latency.
    Play,
    /// Whole matches by many clients, every finished one replayed.
    Soak,
    /// Whole matches of four remote seats, then views only.
    Whole,
    /// Reads only, of matches with due work: the writes they cause.
    Reads,
}

/// HTTP load and soak tool for a server on this machine.
#[derive(Debug, Parser)]
#[command(name = "http_load")]
struct Flags {
    #[arg(long, value_enum)]
    mode: Mode,
    /// The server (a loopback address only).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Connections (play mode).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    conns: u64,
    /// Matches played in turn (play mode), or to the end (whole mode).
    #[arg(long, default_value_t = 1000)]
    matches: usize,
    /// Concurrent clients (soak mode).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    bots: u64,
    /// How long to run, above 0 and at most 3600.
    #[arg(long, default_value_t = 30.0)]
    seconds: f64,
    /// Requests at most (play mode).
    #[arg(long, default_value_t = 50_000_000)]
    max_requests: u64,
    /// Tokio worker threads.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    threads: u64,
    /// A Redis URL (loopback): also report the bytes Redis holds per match.
    #[arg(long)]
    redis: Option<String>,
    /// Passed by cargo to every bench target; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

/// The checks clap does not make: loopback targets, a sane duration.
fn check(f: &Flags) -> Result<(), String> {
    for url in std::iter::once(&f.url).chain(&f.redis) {
        if !is_loopback(url) {
            return Err(format!("{url} is not a loopback address"));
        }
    }
    if !(f.seconds > 0.0 && f.seconds <= 3600.0) {
        return Err("--seconds must be above 0 and at most 3600".into());
    }
    Ok(())
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
    let flags = match Flags::try_parse() {
        Ok(f) => f,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    if let Err(e) = check(&flags) {
        eprintln!("http_load: {e}");
        return ExitCode::from(2);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(flags.threads as usize)
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
        if flags.mode == Mode::Reads {
            reads::run(reads::ReadsArgs {
                url: flags.url,
                conns: flags.conns as usize,
                matches: flags.matches,
                seconds: flags.seconds,
            })
            .await
        } else if flags.mode == Mode::Whole {
            whole::run(whole::WholeArgs {
                url: flags.url,
                conns: flags.conns as usize,
                matches: flags.matches,
                seconds: flags.seconds,
                redis: flags.redis,
            })
            .await
        } else if flags.mode == Mode::Play {
            play::run(play::PlayArgs {
                url: flags.url,
                conns: flags.conns as usize,
                matches: flags.matches,
                seconds: flags.seconds,
                max_requests: flags.max_requests,
                redis: flags.redis,
            })
            .await
        } else {
            soak::run(soak::SoakArgs {
                url: flags.url,
                bots: flags.bots as usize,
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
