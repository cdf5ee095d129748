//! Command line and environment configuration.

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
}

/// Options of `serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Redis URL; without it matches are kept in memory.
    #[arg(long, env = "REDIS_URL")]
    pub redis_url: Option<String>,
    /// How long an idle match is kept in Redis, in seconds.
    #[arg(long, env = "MATCH_TTL_SECS", default_value_t = 7 * 24 * 3600)]
    pub match_ttl_secs: u64,
    /// Worker threads (default: one per core).
    #[arg(long, env = "WORKERS")]
    pub workers: Option<usize>,
    /// Requests per second per client address (0: no limit).
    #[arg(long, env = "RATE_LIMIT_PER_IP", default_value_t = 500)]
    pub rate_limit_per_ip: u32,
    /// Requests per second per seat token (0: no limit).
    #[arg(long, env = "RATE_LIMIT_PER_TOKEN", default_value_t = 100)]
    pub rate_limit_per_token: u32,
    /// Matches one client address may create per minute (0: no limit).
    #[arg(long, env = "CREATES_PER_MINUTE", default_value_t = 600)]
    pub creates_per_minute: u32,
    /// Take the client address from `X-Forwarded-For` (only behind a trusted proxy).
    #[arg(long, env = "TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,
    /// Comma-separated origins browsers may call from (`*`: any, the default).
    #[arg(long, env = "CORS_ORIGINS", default_value = "*", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// Log format: `text` or `json`.
    #[arg(long, env = "LOG_FORMAT", default_value = "text")]
    pub log_format: String,
}
