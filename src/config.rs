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
    },
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
    /// Log format: `text` or `json`.
    #[arg(long, env = "LOG_FORMAT", default_value = "text")]
    pub log_format: String,
}
