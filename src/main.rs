use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use mimalloc::MiMalloc;
use tracing_subscriber::EnvFilter;

use botifarra::config::{Cli, Command, ServeArgs};
use botifarra::http::ServeOptions;
use botifarra::http::limit::RateLimits;
use botifarra::lobby::Lobby;
use botifarra::lobby::store::{LobbyStore, MemoryLobbyStore, RedisLobbyStore};
use botifarra::service::{Limits, Service};
use botifarra::store::{MatchStore, MemoryLimits, MemoryStore, RedisStore};

mod bench;

/// `botifarra calibrate`: records a bot's bidding and prints the fitted model.
fn calibrate(args: &botifarra::config::CalibrateArgs) -> std::process::ExitCode {
    use botifarra::bots::calibrate::{collect, fit, log_likelihood};
    use botifarra::bots::inference::Model;
    let Some(bot) = botifarra::bots::by_name(&args.bot) else {
        eprintln!("botifarra calibrate: unknown bot {:?}", args.bot);
        return std::process::ExitCode::FAILURE;
    };
    let started = std::time::Instant::now();
    let samples = collect(bot, args.variant, args.hands, args.seed);
    let model = fit(&samples);
    println!(
        "{} bidding actions of {} in {} hands of {:?} (seed {}), {:.1} s",
        samples.len(),
        args.bot,
        args.hands,
        args.variant,
        args.seed,
        started.elapsed().as_secs_f64()
    );
    println!(
        "mean log-likelihood: heuristic thresholds {:.4}, fitted {:.4}",
        log_likelihood(&Model::HEURISTIC, &samples),
        log_likelihood(&model, &samples)
    );
    println!("{model:#?}");
    std::process::ExitCode::SUCCESS
}

/// A faster allocator for the server and the engine benchmark: the engine
/// makes a few small allocations per hand.
#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Openapi) => match botifarra::http::openapi_json() {
            Ok(doc) => {
                print!("{doc}");
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("botifarra: the OpenAPI document does not serialize: {e}");
                std::process::ExitCode::FAILURE
            }
        },
        Some(Command::BenchEngine { seconds, baseline }) => {
            let bare = baseline.then(|| bench::bench_baseline(seconds));
            let report = bench::bench_engine(seconds);
            println!("hands={} seconds={:.3}", report.hands, report.seconds);
            if let Some(bare) = bare {
                println!("baseline_hands_per_second={}", bare.hands_per_second as u64);
                println!(
                    "engine_to_baseline={:.2}",
                    report.hands_per_second / bare.hands_per_second
                );
            }
            println!("hands_per_second={}", report.hands_per_second as u64);
            std::process::ExitCode::SUCCESS
        }
        Some(Command::Arena(args)) => botifarra::arena::main(&args),
        Some(Command::Calibrate(args)) => calibrate(&args),
        Some(Command::Solve(a)) => bench::solve::main(&bench::solve::SolveArgs {
            variant: a.variant,
            seed: a.seed,
            played: a.played,
            forced: a.forced,
            must_trump: a.must_trump,
            bench: a.bench,
            value_only: a.value_only,
            probe: a.probe,
            table_bits: a.table_bits,
        }),
        Some(Command::Serve(args)) => serve(args),
        None => serve(cli.serve),
    }
}

fn serve(args: ServeArgs) -> std::process::ExitCode {
    init_logs(&args.log_format);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build();
    let result = match runtime {
        Ok(rt) => rt.block_on(run(args)),
        Err(e) => Err(e),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "server failed");
            eprintln!("botifarra: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The match service's limits, from the flags.
fn limits(args: &ServeArgs) -> Limits {
    Limits {
        max_steps: args.max_steps_per_request.max(1),
        bot_threads: args.bot_threads,
        hint_threads: args.hint_threads,
        max_hands_per_match: args.max_hands_per_match,
        max_queue_tickets: args.queue_max_tickets.max(1),
        rated_clock_ms: args.rated_move_timeout_ms,
        rated_bot_clock_ms: args.rated_bot_move_timeout_ms,
        abandon_after_missed: args.abandon_after_missed,
        claim_after_missed: args.claim_after_missed,
        ..Limits::default()
    }
}

/// `store` with the writes of a match waiting for the replicas `policy`
/// asks for (logged when they do).
async fn replica_policy(
    store: RedisStore,
    policy: botifarra::store::ReplicaWait,
    wait: Duration,
) -> std::io::Result<RedisStore> {
    let store = store
        .with_replica_policy(policy, wait)
        .await
        .map_err(|e| std::io::Error::other(format!("cannot ask Redis for its replicas: {e}")))?;
    let n = store.replicas_waited_for();
    tracing::info!(%policy, replicas = n, "each write of a match waits for {n} replica(s)");
    Ok(store)
}

async fn run(args: ServeArgs) -> std::io::Result<()> {
    let ttl = Duration::from_secs(args.match_ttl_secs);
    let wait = Duration::from_millis(args.redis_wait_timeout_ms);
    let store: Arc<dyn MatchStore> = match &args.redis_url {
        None if !args.redis_cluster.is_empty() => {
            let cannot = |e| std::io::Error::other(format!("cannot use the Redis Cluster: {e}"));
            let store = RedisStore::connect_cluster(&args.redis_cluster, ttl)
                .await
                .map_err(cannot)?;
            Arc::new(replica_policy(store, args.redis_wait_replicas, wait).await?)
        }
        Some(url) => {
            let cannot = |e| std::io::Error::other(format!("cannot use Redis at {url}: {e}"));
            let store = RedisStore::connect(url, ttl).await.map_err(cannot)?;
            Arc::new(replica_policy(store, args.redis_wait_replicas, wait).await?)
        }
        None => Arc::new(MemoryStore::with_limits(MemoryLimits {
            ttl: Duration::from_secs(args.match_ttl_secs.max(1)),
            max_matches: args.memory_max_matches,
            max_bytes: args.memory_max_mib.saturating_mul(1 << 20),
        })),
    };
    let listener = TcpListener::bind(&args.bind)?;
    let addr = listener.local_addr()?;
    let metrics_listener = args
        .metrics_bind
        .as_deref()
        .map(TcpListener::bind)
        .transpose()?;
    tracing::info!(%addr, store = store.kind(), "serving; Swagger UI at http://{addr}/swagger-ui/");
    let svc =
        Service::new(store, limits(&args)).map_err(|e| std::io::Error::other(e.to_string()))?;
    // One selector for everything: the lobby lives where the matches do.
    let lobby_store: Arc<dyn LobbyStore> = match &args.redis_url {
        None if !args.redis_cluster.is_empty() => Arc::new(
            RedisLobbyStore::connect_cluster(&args.redis_cluster)
                .await
                .map_err(|e| std::io::Error::other(format!("cannot use the Redis Cluster: {e}")))?,
        ),
        Some(url) => Arc::new(
            RedisLobbyStore::connect(url)
                .await
                .map_err(|e| std::io::Error::other(format!("cannot use Redis at {url}: {e}")))?,
        ),
        None => Arc::new(MemoryLobbyStore::new()),
    };
    let lobby = Lobby::new(svc, lobby_store);
    let trusted_proxies = if args.trust_forwarded_for {
        args.trusted_proxies.max(1)
    } else {
        args.trusted_proxies
    };
    let opts = ServeOptions {
        workers: args.workers,
        rate_limits: RateLimits {
            per_ip_per_sec: args.rate_limit_per_ip,
            per_token_per_sec: args.rate_limit_per_token,
            per_match_per_sec: args.rate_limit_per_match,
            creates_per_min: args.creates_per_minute,
            hints_per_sec: args.hints_per_second,
            trusted_proxies,
            connections_per_ip: args.max_connections_per_ip,
            streams_per_ip: args.max_streams_per_ip,
            invites_per_min: args.invites_per_minute,
            streams_total: args.max_streams,
            players_per_ip_per_day: args.players_per_ip_per_day,
            max_players: args.max_players,
        },
        cors_origins: args.cors_origins,
        header_timeout: Duration::from_millis(args.header_timeout_ms),
        body_timeout: Duration::from_millis(args.body_timeout_ms),
        metrics_token: args.metrics_token.filter(|t| !t.is_empty()),
        scheduler: botifarra::service::SchedulerOptions {
            enabled: !args.no_scheduler,
            ..botifarra::service::SchedulerOptions::default()
        },
    };
    botifarra::http::serve_split(listener, metrics_listener, lobby, opts)?.await
}

fn init_logs(format: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    if format == "json" {
        builder.json().init();
    } else {
        builder.init();
    }
}
