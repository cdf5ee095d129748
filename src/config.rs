//! Command line and environment configuration.

use crate::store::ReplicaWait;
use clap::{Args, Parser, Subcommand};

/// The Botifarra game server.
#[derive(Debug, Parser)]
#[command(name = "botifarra", version, about)]
pub struct Cli {
    /// What to do (default: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Server options (used when no subcommand is given).
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// The subcommands.
// Parsed once at start; boxing the serve options would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the HTTP API (the default).
    Serve(ServeArgs),
    /// Print the OpenAPI document.
    Openapi,
    /// Play random hands on one thread and report hands per second.
    BenchEngine {
        /// How long to run.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// First run the bare bit-mask playout loop for as long, and print
        /// its rate and the engine's share of it (the engine's target is at
        /// least half the baseline's rate).
        #[arg(long)]
        baseline: bool,
    },
    /// Play two bots against each other over duplicate deals.
    Arena(crate::arena::ArenaArgs),
    /// Solve a seeded deal exactly: the value of every legal card, or a
    /// benchmark of the whole-deal solver.
    Solve(SolveArgs),
    /// Fit the expert's bidding model to a house bot's bidding and print it.
    Calibrate(CalibrateArgs),
}

/// Options of `solve`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// `pairs`, `abarrotada` or `abarrotada3`.
    #[arg(long, default_value = "pairs", value_parser = crate::arena::parse_variant)]
    pub variant: crate::rules::Variant,
    /// Seed of the deal (its cards, its trump, the random cards played).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random legal cards played from the deal before the position solved.
    #[arg(long, default_value_t = 0)]
    pub played: u32,
    /// Forced mode (pairs only).
    #[arg(long)]
    pub forced: bool,
    /// Must-trump.
    #[arg(long)]
    pub must_trump: bool,
    /// Benchmark instead: solve the whole deals of this many seeds (from
    /// `--seed` on) and print mean, p95 and max milliseconds a deal and
    /// the positions searched per second.
    #[arg(long)]
    pub bench: Option<u64>,
    /// With `--bench`: the value of each position only, not the value of
    /// every legal card after it (a whole deal's every-card pass doubles
    /// its cost).
    #[arg(long)]
    pub value_only: bool,
    /// With `--bench --value-only`: one zero-window search per position
    /// instead of its value: whether the side to play takes at least this
    /// many hand points from there (what `expert-v4`'s doubles ask).
    #[arg(long, requires = "value_only")]
    pub probe: Option<i32>,
    /// The solver's transposition table holds `2^table_bits` entries of
    /// 32 bytes (18: the library's default, 8 MiB).
    #[arg(long, default_value_t = 18)]
    pub table_bits: u32,
}

/// Options of `calibrate`.
#[derive(Debug, Clone, Args)]
pub struct CalibrateArgs {
    /// `pairs`, `abarrotada` or `abarrotada3`.
    #[arg(long, default_value = "pairs", value_parser = crate::arena::parse_variant)]
    pub variant: crate::rules::Variant,
    /// Hands whose bidding is recorded.
    #[arg(long, default_value_t = 3000)]
    pub hands: u32,
    /// Seed of the deals (and of the bot's choices).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The house bot whose bidding is fitted.
    #[arg(long, default_value = "montecarlo")]
    pub bot: String,
}

/// Options of `serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Redis URL, for matches and the lobby; without it (and without
    /// `--redis-cluster`) both are kept in memory.
    #[arg(long, env = "REDIS_URL", conflicts_with = "redis_cluster")]
    pub redis_url: Option<String>,
    /// Redis Cluster nodes, comma-separated `redis://host:port` URLs (any
    /// of the cluster's nodes; the rest are discovered): matches and the
    /// whole lobby are kept there.
    #[arg(long, env = "REDIS_CLUSTER_NODES", value_delimiter = ',')]
    pub redis_cluster: Vec<String>,
    /// On Redis: replicas every write of a match must reach (`WAIT`)
    /// before it is acknowledged; a write they do not confirm within
    /// `--redis-wait-timeout-ms` is answered `503` (retryable). `auto`
    /// (the default): one when every master has a replica at start-up,
    /// none otherwise; 0: no wait, and a master lost before its replicas
    /// copied a write loses it.
    #[arg(long, env = "REDIS_WAIT_REPLICAS", default_value = "auto")]
    pub redis_wait_replicas: ReplicaWait,
    /// How long a write waits for `--redis-wait-replicas`, in ms.
    #[arg(long, env = "REDIS_WAIT_TIMEOUT_MS", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub redis_wait_timeout_ms: u64,
    /// How long a match is kept after its last write, in seconds (Redis
    /// and memory stores alike).
    #[arg(long, env = "MATCH_TTL_SECS", default_value_t = 7 * 24 * 3600)]
    pub match_ttl_secs: u64,
    /// Most matches the memory store holds; past it creates get `507 store_full`.
    #[arg(long, env = "MEMORY_MAX_MATCHES", default_value_t = 100_000)]
    pub memory_max_matches: usize,
    /// Most bytes of match data the memory store holds, in MiB; past it
    /// creates and commits get `507 store_full`.
    #[arg(long, env = "MEMORY_MAX_MIB", default_value_t = 512)]
    pub memory_max_mib: usize,
    /// Worker threads (default: one per core).
    #[arg(long, env = "WORKERS")]
    pub workers: Option<usize>,
    /// Requests per second per client address (0: no limit).
    #[arg(long, env = "RATE_LIMIT_PER_IP", default_value_t = 1000)]
    pub rate_limit_per_ip: u32,
    /// Requests per second per API key or seat token, all its matches
    /// together (0: no limit).
    #[arg(long, env = "RATE_LIMIT_PER_TOKEN", default_value_t = 500)]
    pub rate_limit_per_token: u32,
    /// Requests per second per match per API key or seat token, within
    /// the key's budget; also the budget of the key's reads of its
    /// matches list (0: no limit).
    #[arg(long, env = "RATE_LIMIT_PER_MATCH", default_value_t = 100)]
    pub rate_limit_per_match: u32,
    /// Matches, tables, players and challenges one client address may
    /// create per minute (0: no limit).
    #[arg(long, env = "CREATES_PER_MINUTE", default_value_t = 600)]
    pub creates_per_minute: u32,
    /// `legal-moves?hint=` requests per second per client address (0: no limit).
    #[arg(long, env = "HINTS_PER_SECOND", default_value_t = 5)]
    pub hints_per_second: u32,
    /// Same as `--trusted-proxies 1`: one proxy in front appends the client
    /// address to `X-Forwarded-For`.
    #[arg(long, env = "TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,
    /// How many proxies in front of the server append to
    /// `X-Forwarded-For`; the client address is the entry that many from
    /// the right (0: the header is ignored).
    #[arg(long, env = "TRUSTED_PROXIES", default_value_t = 0)]
    pub trusted_proxies: usize,
    /// Open connections per client address (0: no limit; only without
    /// trusted proxies).
    #[arg(long, env = "MAX_CONNECTIONS_PER_IP", default_value_t = 256)]
    pub max_connections_per_ip: usize,
    /// Open event streams per client address (0: no limit).
    #[arg(long, env = "MAX_STREAMS_PER_IP", default_value_t = 32)]
    pub max_streams_per_ip: usize,
    /// Open event streams on this instance in all (0: no limit); past it
    /// `503 busy`.
    #[arg(long, env = "MAX_STREAMS", default_value_t = 4096)]
    pub max_streams: usize,
    /// Players one client address may register per day, UTC (0: no
    /// limit); counted in the lobby's store, across instances; past it
    /// `429 rate_limited`.
    #[arg(long, env = "PLAYERS_PER_IP_PER_DAY", default_value_t = 200)]
    pub players_per_ip_per_day: u64,
    /// Players registered in all (0: no limit); past it `507
    /// capacity_reached`.
    #[arg(long, env = "MAX_PLAYERS", default_value_t = 1_000_000)]
    pub max_players: u64,
    /// Invite-code requests per minute per client address (0: no limit).
    #[arg(long, env = "INVITES_PER_MINUTE", default_value_t = 20)]
    pub invites_per_minute: u32,
    /// How long a client may take to send a request's head, in milliseconds.
    #[arg(long, env = "HEADER_TIMEOUT_MS", default_value_t = 5_000)]
    pub header_timeout_ms: u64,
    /// How long a client may take to send a request body, in milliseconds.
    #[arg(long, env = "BODY_TIMEOUT_MS", default_value_t = 10_000)]
    pub body_timeout_ms: u64,
    /// Most engine steps (house-bot moves, automatic deals) one request plays.
    #[arg(long, env = "MAX_STEPS_PER_REQUEST", default_value_t = 64)]
    pub max_steps_per_request: usize,
    /// Most house-bot advances running at once, off the request workers.
    #[arg(long, env = "BOT_THREADS", default_value_t = 2)]
    pub bot_threads: usize,
    /// Most hints computed at once, off the request workers.
    #[arg(long, env = "HINT_THREADS", default_value_t = 1)]
    pub hint_threads: usize,
    /// Most hands one match may deal (the cap on its events and size).
    #[arg(long, env = "MAX_HANDS_PER_MATCH", default_value_t = 1000)]
    pub max_hands_per_match: u32,
    /// The move clock (ms) of a rated match created without one, when a
    /// person sits at a client seat.
    #[arg(long, env = "RATED_MOVE_TIMEOUT_MS", default_value_t = 120_000,
          value_parser = clap::value_parser!(u64).range(100..=86_400_000))]
    pub rated_move_timeout_ms: u64,
    /// The move clock (ms) of a rated match created without one, when
    /// every client seat is a bot player's.
    #[arg(long, env = "RATED_BOT_MOVE_TIMEOUT_MS", default_value_t = 15_000,
          value_parser = clap::value_parser!(u64).range(100..=86_400_000))]
    pub rated_bot_move_timeout_ms: u64,
    /// In a rated match, the moves in a row a client seat may miss on its
    /// move clock before its side loses by abandonment (0: never).
    #[arg(long, env = "ABANDON_AFTER_MISSED", default_value_t = 3)]
    pub abandon_after_missed: u8,
    /// The moves in a row an opponent must have missed on its move clock
    /// before a seat may claim victory (at least 1).
    #[arg(long, env = "CLAIM_AFTER_MISSED", default_value_t = 2,
          value_parser = clap::value_parser!(u8).range(1..))]
    pub claim_after_missed: u8,
    /// Most tickets waiting in one rating band of a queue pool; past it
    /// `POST /v1/queue` (and accepting a party) gets `507 queue_full`.
    #[arg(long, env = "QUEUE_MAX_TICKETS", default_value_t = 100_000)]
    pub queue_max_tickets: usize,
    /// Play no due work here and run no lobby housekeeping: this instance
    /// only answers requests (at least one instance sharing the store
    /// must run the scheduler, or bots and clocks stand still).
    #[arg(long, env = "NO_SCHEDULER")]
    pub no_scheduler: bool,
    /// Require `Authorization: Bearer <token>` on `/metrics`.
    #[arg(long, env = "METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Serve `/metrics` only on this separate address (e.g. `127.0.0.1:9090`).
    #[arg(long, env = "METRICS_BIND")]
    pub metrics_bind: Option<String>,
    /// Comma-separated origins browsers may call from (`*`: any, the default).
    #[arg(long, env = "CORS_ORIGINS", default_value = "*", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// Log format: `text` or `json`.
    #[arg(long, env = "LOG_FORMAT", default_value = "text")]
    pub log_format: String,
}
