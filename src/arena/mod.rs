//! The bot arena: two players over many duplicate deals (or whole matches),
//! in parallel, with a confidence interval on the difference.
//!
//! *Duplicate*: every deal is played once per seating of the set in
//! [`seatings`] (in the pairs game: A as team 0, then A as team 1; in the
//! individual variants every split of the seats), with the
//! same cards, so card luck cancels out of each deal's result. A deal's
//! result is the mean over its seatings of (points A records − points B
//! records) per seat; the report gives the mean over deals with a 95%
//! confidence interval (normal approximation).

mod doubles;
mod external;
mod player;
mod report;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::rules::{Action, Event, Match, Phase, Rules, Seed, Variant, Winner};
use crate::service::{SeatInfo, SeatKind};

pub use doubles::Doubles;
pub use external::Table;
pub use player::Player;
pub use report::{ArenaReport, BotStats, Estimate};

/// Options of `botifarra arena`.
#[derive(Debug, Clone, Args)]
pub struct ArenaArgs {
    /// Player A: a house bot or level (`heuristic`, `random`, `montecarlo`,
    /// `expert`, `easy`, `medium`, `hard`), `expert-v1` to `expert-v4`,
    /// `montecarlo:<playouts>:<max_ms>[:heuristic|greedy][:infer]`,
    /// `expert:<samples>:<nodes>[:<max_tricks>][:plain][:hdoubles][:twosided|maxn|reply|whole]`,
    /// `expert-v4:<deals>:<nodes>[:<played>]`, or an external bot's `http://`
    /// URL (docs/arena.md, "The arena").
    #[arg(long, default_value = "heuristic")]
    pub a: String,
    /// Player B, as for `--a`.
    #[arg(long, default_value = "random")]
    pub b: String,
    /// Number of duplicate deals (single hands).
    #[arg(long, default_value_t = 2000)]
    pub deals: u32,
    /// Play this many duplicate whole matches instead of single deals.
    #[arg(long, conflicts_with = "deals")]
    pub matches: Option<u32>,
    /// `pairs`, `abarrotada` or `abarrotada3`.
    #[arg(long, default_value = "pairs", value_parser = parse_variant)]
    pub variant: Variant,
    /// Seed of the deals (the same seed plays the same cards).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Also write each deal's (or match's) results to this CSV file, to
    /// pair two runs on the same seed deal by deal.
    #[arg(long)]
    pub per_deal: Option<std::path::PathBuf>,
}

/// A variant named on the command line.
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    serde_json::from_value(serde_json::Value::String(s.to_string()))
        .map_err(|_| format!("unknown variant {s:?}: expected pairs, abarrotada or abarrotada3"))
}

/// Why an arena run failed.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A player name that is neither a house bot nor a URL.
    #[error("unknown bot {0:?}: expected one of {names}, expert-v1 to expert-v4, montecarlo:<playouts>:<max_ms>[:heuristic|greedy][:infer], expert:<samples>:<nodes>[:<max_tricks>][:plain][:hdoubles][:twosided|maxn|reply|whole], expert-v4:<deals>:<nodes>[:<played>], or an http:// URL", names = crate::bots::NAMES.join(", "))]
    UnknownBot(String),
    /// An external bot failed.
    #[error("external bot {url}: {detail}")]
    External {
        /// Its URL.
        url: String,
        /// What went wrong.
        detail: String,
    },
    /// The engine refused a move (a bug in a house bot).
    #[error("{0}")]
    Engine(String),
    /// The thread pool could not be built.
    #[error("thread pool: {0}")]
    Pool(String),
}

/// Which seats A occupies in each game of a duplicate set (bit `s` = seat
/// `s`; B takes the others). In the pairs game the two teams swap; in
/// `abarrotada` A holds every pair of the four seats (opposite, then side
/// by side), so every seat plays before and after each of the others'
/// players; in the three-seat game A sits alone in each seat and then B
/// does.
pub fn seatings(variant: Variant) -> &'static [u8] {
    match variant {
        Variant::Pairs => &[0b0101, 0b1010],
        Variant::Abarrotada => &[0b0101, 0b1010, 0b0011, 0b1100, 0b0110, 0b1001],
        Variant::Abarrotada3 => &[0b001, 0b010, 0b100, 0b110, 0b101, 0b011],
    }
}

/// Time and count of decisions of one player.
#[derive(Default)]
struct Clock {
    decisions: AtomicU64,
    nanos: AtomicU64,
    max_nanos: AtomicU64,
    cpu_nanos: AtomicU64,
    max_cpu_nanos: AtomicU64,
}

impl Clock {
    /// Counts a decision that took `wall` nanoseconds (and `cpu` of the
    /// arena thread's CPU, for a player run in the arena).
    fn record(&self, wall: u64, cpu: Option<u64>) {
        self.decisions.fetch_add(1, Ordering::Relaxed);
        self.nanos.fetch_add(wall, Ordering::Relaxed);
        self.max_nanos.fetch_max(wall, Ordering::Relaxed);
        if let Some(cpu) = cpu {
            self.cpu_nanos.fetch_add(cpu, Ordering::Relaxed);
            self.max_cpu_nanos.fetch_max(cpu, Ordering::Relaxed);
        }
    }
}

/// CPU time of the calling thread, in nanoseconds: what a decision costs on
/// one core, whatever else the machine is running.
#[cfg(unix)]
fn thread_cpu_nanos() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if ok {
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    } else {
        0
    }
}

/// Without a thread clock, CPU time is not measured.
#[cfg(not(unix))]
fn thread_cpu_nanos() -> u64 {
    0
}

/// Runs the arena.
///
/// # Errors
/// [`ArenaError`] for an unknown bot, a failing external bot, or a move the
/// engine refuses.
pub fn run(args: &ArenaArgs) -> Result<ArenaReport, ArenaError> {
    let players = [Player::parse(&args.a)?, Player::parse(&args.b)?];
    let clocks = [Clock::default(), Clock::default()];
    let units = args.matches.unwrap_or(args.deals);
    let progress = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(u64::from(units))
    };
    progress.set_style(
        ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    progress.set_prefix(if args.matches.is_some() {
        "matches"
    } else {
        "deals"
    });
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool.build().map_err(|e| ArenaError::Pool(e.to_string()))?;
    let start = Instant::now();
    let outcomes: Result<Vec<Outcome>, ArenaError> = pool.install(|| {
        (0..units)
            .into_par_iter()
            .map(|i| {
                let o = play_duplicate(args, &players, &clocks, i);
                progress.inc(1);
                o
            })
            .collect()
    });
    progress.finish_and_clear();
    let outcomes = outcomes?;
    let mut doubles = [Doubles::default(); 2];
    for o in &outcomes {
        for (d, od) in doubles.iter_mut().zip(&o.doubles) {
            d.merge(od);
        }
    }
    let stats = |i: usize, name: &str| BotStats {
        name: name.to_string(),
        decisions: clocks[i].decisions.load(Ordering::Relaxed),
        seconds: clocks[i].nanos.load(Ordering::Relaxed) as f64 / 1e9,
        max_ms: clocks[i].max_nanos.load(Ordering::Relaxed) as f64 / 1e6,
        cpu_seconds: clocks[i].cpu_nanos.load(Ordering::Relaxed) as f64 / 1e9,
        max_cpu_ms: clocks[i].max_cpu_nanos.load(Ordering::Relaxed) as f64 / 1e6,
        wall_clock: players[i].is_external(),
        doubles: doubles[i],
    };
    Ok(ArenaReport {
        a: stats(0, &args.a),
        b: stats(1, &args.b),
        variant: args.variant,
        matches: args.matches.is_some(),
        units,
        seed: args.seed,
        threads: pool.current_num_threads(),
        wall_seconds: start.elapsed().as_secs_f64(),
        recorded: Estimate::of(outcomes.iter().map(|o| o.recorded)),
        points: Estimate::of(outcomes.iter().map(|o| o.points)),
        wins: args
            .matches
            .map(|_| Estimate::of(outcomes.iter().map(|o| o.wins))),
        hands: outcomes.iter().map(|o| o.hands).sum(),
        each: outcomes.iter().map(|o| (o.recorded, o.points)).collect(),
    })
}

/// The result of one duplicate set, averaged over its seatings.
struct Outcome {
    /// Recorded points, A minus B, per seat.
    recorded: f64,
    /// Hand points, A minus B, per seat (per hand in match mode).
    points: f64,
    /// A's share of wins (a draw counts half), in match mode.
    wins: f64,
    /// Hands played over all seatings.
    hands: u64,
    /// A's and B's doubles over all seatings.
    doubles: [Doubles; 2],
}

/// The deal seed of set `i` of a run seeded with `seed`.
fn set_seed(seed: u64, i: u32) -> Seed {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&seed.to_le_bytes());
    s[8..12].copy_from_slice(&i.to_le_bytes());
    s[12..16].copy_from_slice(b"aren");
    s
}

/// The random numbers of the decision taken after `version` actions of set
/// `i`: the same in every seating of the set, so two players running the
/// same algorithm in the same position decide alike (common random numbers:
/// what they share cancels out of the deal's result instead of adding
/// noise to it).
fn decision_rng(seed: u64, i: u32, version: u64) -> Xoshiro256PlusPlus {
    let mut x = seed ^ u64::from(i).rotate_left(32) ^ version.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // SplitMix64's finaliser: nearby inputs give unrelated seeds.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Xoshiro256PlusPlus::seed_from_u64(x ^ (x >> 31))
}

/// The seats as the API's view lists them: A's and B's, each a house bot
/// (`bot`, with the name it was given) or a remote seat (an external bot).
fn seats(args: &ArenaArgs, players: &[Player; 2], mask: u8) -> Vec<SeatInfo> {
    let table = args.variant.table();
    (0..table.seats)
        .map(|s| {
            let who = usize::from(mask >> s & 1 == 0);
            let (label, name) = [("A", &args.a), ("B", &args.b)][who];
            let external = players[who].is_external();
            SeatInfo {
                seat: s,
                team: table.side(s),
                kind: if external {
                    SeatKind::Remote
                } else {
                    SeatKind::Bot
                },
                bot: if external {
                    crate::bots::DEFAULT.to_string()
                } else {
                    name.clone()
                },
                name: Some(label.to_string()),
                player: None,
            }
        })
        .collect()
}

/// Plays set `i` in every seating.
fn play_duplicate(
    args: &ArenaArgs,
    players: &[Player; 2],
    clocks: &[Clock; 2],
    i: u32,
) -> Result<Outcome, ArenaError> {
    let rules = Rules {
        variant: args.variant,
        max_hands: if args.matches.is_some() {
            None
        } else {
            Some(1)
        },
        ..Rules::default()
    };
    let seat_list = seatings(args.variant);
    let mut out = Outcome {
        recorded: 0.0,
        points: 0.0,
        wins: 0.0,
        hands: 0,
        doubles: [Doubles::default(); 2],
    };
    for (k, &mask) in seat_list.iter().enumerate() {
        let m = play_seating(args, players, clocks, &rules, i, k, mask)?;
        out.add_seating(&m, mask);
    }
    let n = seat_list.len() as f64;
    out.recorded /= n;
    out.points /= n;
    out.wins /= n;
    Ok(out)
}

/// Plays set `i` in its seating number `k`, A in the seats of `mask` and B
/// in the others, to the end of the match `rules` describe (one hand, or a
/// whole match); returns the finished match.
fn play_seating(
    args: &ArenaArgs,
    players: &[Player; 2],
    clocks: &[Clock; 2],
    rules: &Rules,
    i: u32,
    k: usize,
    mask: u8,
) -> Result<Match, ArenaError> {
    let mut m = Match::new(rules.clone(), set_seed(args.seed, i))
        .map_err(|e| ArenaError::Engine(e.to_string()))?;
    let mut events: Vec<Event> = Vec::new();
    let mut api = Table {
        match_id: format!("arena-{}-{i}-{k}", args.seed),
        version: 0,
        // The server's first event is `match_created`.
        last_seq: 1,
        seats: seats(args, players, mask),
    };
    while let Some(seat) = m.turn() {
        // The arena deals, as a server with `auto_deal` does: dealing
        // is no decision of a client.
        let who = usize::from(mask >> seat & 1 == 0);
        let action = if m.phase() == Phase::AwaitingDeal {
            Action::Deal
        } else {
            let view = m.view(Some(seat));
            let (t, cpu) = (Instant::now(), thread_cpu_nanos());
            let mut rng = decision_rng(args.seed, i, api.version);
            let (action, round_trip) = players[who].choose(&view, &api, &mut rng)?;
            match round_trip {
                // An external bot: the wall time of its HTTP round trip.
                Some(rt) => clocks[who].record(rt.as_nanos() as u64, None),
                None => {
                    let cpu = thread_cpu_nanos().saturating_sub(cpu);
                    clocks[who].record(t.elapsed().as_nanos() as u64, Some(cpu));
                }
            }
            action
        };
        m.apply(seat, action, &mut events)
            .map_err(|e| ArenaError::Engine(format!("{} refused: {e}", external::json(&action))))?;
        api.version += 1;
        api.last_seq += events.len() as u64;
        events.clear();
    }
    Ok(m)
}

impl Outcome {
    /// Adds the finished match `m`, played with A in the seats of `mask`:
    /// per-seat means of A's and B's seats, A's win, its hands.
    fn add_seating(&mut self, m: &Match, mask: u8) {
        let table = m.table();
        let a_seats: Vec<u8> = (0..table.seats).filter(|s| mask >> s & 1 == 1).collect();
        let b_seats: Vec<u8> = (0..table.seats).filter(|s| mask >> s & 1 == 0).collect();
        let mean = |seats: &[u8], f: &dyn Fn(u8) -> f64| {
            seats.iter().map(|&s| f(s)).sum::<f64>() / seats.len() as f64
        };
        let recorded = |s: u8| f64::from(m.scores[table.side(s) as usize]);
        let points = |s: u8| {
            let side = table.side(s) as usize;
            m.results
                .iter()
                .map(|r| f64::from(r.points[side]))
                .sum::<f64>()
                / m.results.len().max(1) as f64
        };
        self.recorded += mean(&a_seats, &recorded) - mean(&b_seats, &recorded);
        self.points += mean(&a_seats, &points) - mean(&b_seats, &points);
        self.wins += match m.winner {
            Some(Winner::Side(side)) => {
                let a_won = (0..table.seats).any(|s| mask >> s & 1 == 1 && table.side(s) == side);
                if a_won { 1.0 } else { 0.0 }
            }
            _ => 0.5,
        };
        self.hands += m.results.len() as u64;
        let all = (1u8 << table.seats) - 1;
        self.doubles[0].add(m, mask);
        self.doubles[1].add(m, all & !mask);
    }
}

/// `botifarra arena`: runs and prints the report; the exit code says
/// whether it ran.
pub fn main(args: &ArenaArgs) -> std::process::ExitCode {
    match run(args) {
        Ok(report) => {
            print!("{report}");
            match args.per_deal.as_ref().map(|p| report.write_each(p)) {
                Some(Err(e)) => {
                    eprintln!("botifarra arena: --per-deal: {e}");
                    std::process::ExitCode::FAILURE
                }
                _ => std::process::ExitCode::SUCCESS,
            }
        }
        Err(e) => {
            eprintln!("botifarra arena: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
