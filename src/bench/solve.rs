//! `botifarra solve`: the exact value of every legal card of a seeded
//! position, or the whole-deal solver's benchmark over seeded deals.

use std::process::ExitCode;
use std::time::Instant;

use botifarra::bots::dds::{DealSolver, seeded_endgame};
use botifarra::rules::{HandState, Rules};

/// The options of `botifarra solve` (the command line's, read by `main`).
pub struct SolveArgs {
    pub variant: botifarra::rules::Variant,
    pub seed: u64,
    pub played: u32,
    pub forced: bool,
    pub must_trump: bool,
    pub bench: Option<u64>,
    pub value_only: bool,
    pub probe: Option<i32>,
    pub table_bits: u32,
}

/// Runs the command.
pub fn main(args: &SolveArgs) -> ExitCode {
    let rules = Rules {
        variant: args.variant,
        forced: args.forced,
        must_trump: args.must_trump,
        ..Rules::default()
    };
    if let Err(e) = rules.validate() {
        eprintln!("botifarra: {e}");
        return ExitCode::FAILURE;
    }
    match args.bench {
        Some(deals) => bench(&rules, args, deals),
        None => solve(&rules, args),
    }
}

/// CPU time of the calling thread, in nanoseconds: what a solve costs on
/// one core, whatever else the machine runs (0 without a thread clock).
fn cpu_nanos() -> u64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec for the whole call.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64;
        }
    }
    0
}

/// The position of `seed` after `played` random legal cards.
fn position(rules: &Rules, seed: u64, played: u32) -> HandState {
    let seats = u32::from(rules.variant.table().seats);
    let tricks = 12 - (played / seats).min(11);
    seeded_endgame(rules, seed, tricks, (played % seats) as usize)
}

/// Prints the position of the seed and the value of each legal card.
fn solve(rules: &Rules, args: &SolveArgs) -> ExitCode {
    let h = position(rules, args.seed, args.played);
    print_position(&h, rules.variant.table().seats);
    let mut s = DealSolver::with_table_bits(rules, args.table_bits);
    let start = Instant::now();
    let Some(values) = s.solve_each(&h) else {
        eprintln!("botifarra: the hand is not in play");
        return ExitCode::FAILURE;
    };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let side = rules.variant.table().side(h.turn) as usize;
    let so_far = i32::from(h.points[side]);
    let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
    println!("seat {} to play; its side has {so_far} hand points", h.turn);
    println!("card  points-from-here  hand-total  recorded  loss");
    for (c, v) in values {
        let total = so_far + v;
        let recorded = (total - rules.variant.threshold() as i32).max(0);
        println!(
            "{:>4}  {v:>16}  {total:>10}  {recorded:>8}  {:>4}",
            c.to_string(),
            best - v
        );
    }
    println!("nodes={} ms={ms:.2}", s.nodes);
    ExitCode::SUCCESS
}

fn print_position(h: &HandState, seats: u8) {
    println!("trump: {:?}", h.trump);
    for seat in 0..seats {
        let cards: Vec<String> = h.hands[seat as usize]
            .iter()
            .map(|c| c.to_string())
            .collect();
        println!("seat {seat}: {}", cards.join(" "));
    }
    let trick: Vec<String> = h.trick.cards().iter().map(|c| c.to_string()).collect();
    println!("trick (led by {}): {}", h.trick.leader, trick.join(" "));
}

/// Solves the positions of `deals` seeds from `--seed` on (whole deals
/// unless `--played`): the value of the position, then (unless
/// `--value-only`) the value of every legal card; with `--probe NEED`, one
/// zero-window search instead of the value (its bound). Times are the thread's
/// CPU time (one core). Each deal's time, positions and answer go to
/// stderr as it ends (progress, the figures to pool runs over other
/// seeds, and the answers to compare two builds deal by deal).
fn bench(rules: &Rules, args: &SolveArgs, deals: u64) -> ExitCode {
    let seed = args.seed;
    let mut s = DealSolver::with_table_bits(rules, args.table_bits);
    let passes: &[(&str, bool)] = if args.probe.is_some() {
        &[("probe", false)]
    } else if args.value_only {
        &[("value", false)]
    } else {
        &[("value", false), ("each_card", true)]
    };
    for &(label, each) in passes {
        let mut ms = Vec::with_capacity(deals as usize);
        let mut nodes = 0;
        for d in 0..deals {
            let h = position(rules, seed + d, args.played);
            s.clear();
            let before = s.nodes;
            let start = cpu_nanos();
            let solved = if each {
                s.solve_each(&h).map(|cards| {
                    let v: Vec<String> = cards.iter().map(|(c, v)| format!("{c}:{v}")).collect();
                    v.join(",")
                })
            } else if let Some(need) = std::env::var("DDS_PROBE").ok().and_then(|v| v.parse().ok())
            {
                s.reaches(&h, h.turn, need).map(|v| v.to_string())
            } else {
                s.value(&h, h.turn).map(|v| v.to_string())
            };
            ms.push((cpu_nanos() - start) as f64 / 1e6);
            nodes += s.nodes - before;
            eprintln!(
                "{label} {}/{deals}: seed={} ms={:.2} nodes={} {label}={}",
                d + 1,
                seed + d,
                ms[ms.len() - 1],
                s.nodes - before,
                solved.as_deref().unwrap_or("none"),
            );
            if solved.is_none() {
                eprintln!("botifarra: deal {} was not solved", seed + d);
                return ExitCode::FAILURE;
            }
        }
        let total: f64 = ms.iter().sum();
        ms.sort_by(f64::total_cmp);
        let p95 = ms[((ms.len() * 95).div_ceil(100)).saturating_sub(1)];
        println!(
            "{label}: deals={deals} mean_ms={:.2} p95_ms={p95:.2} max_ms={:.2} nodes_per_deal={} nodes_per_s={:.0}",
            total / ms.len() as f64,
            ms.last().copied().unwrap_or(0.0),
            nodes / deals.max(1),
            nodes as f64 / (total / 1e3),
        );
    }
    ExitCode::SUCCESS
}
