//! The arena's results and the table it prints.

use std::fmt;

use super::doubles::Doubles;
use crate::rules::Variant;

/// A mean with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The sample mean.
    pub mean: f64,
    /// Half the width of the 95% interval (1.96 standard errors).
    pub half_width: f64,
    /// The number of samples.
    pub n: usize,
}

impl Estimate {
    /// The mean and normal-approximation 95% interval of `xs`.
    pub fn of(xs: impl Iterator<Item = f64>) -> Estimate {
        let xs: Vec<f64> = xs.collect();
        let n = xs.len();
        if n == 0 {
            return Estimate {
                mean: 0.0,
                half_width: 0.0,
                n,
            };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Estimate {
            mean,
            half_width: 1.96 * (var / n as f64).sqrt(),
            n,
        }
    }

    /// The lower end of the interval.
    pub fn low(&self) -> f64 {
        self.mean - self.half_width
    }

    /// The upper end of the interval.
    pub fn high(&self) -> f64 {
        self.mean + self.half_width
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:+8.2}  [{:+.2}, {:+.2}]",
            self.mean,
            self.low(),
            self.high()
        )
    }
}

/// How one player spent its time.
#[derive(Clone, Debug, PartialEq)]
pub struct BotStats {
    /// The player as named on the command line.
    pub name: String,
    /// Decisions made: every action a client would choose, forced ones
    /// included (the deals, which the arena makes itself, are none).
    pub decisions: u64,
    /// Wall-clock time spent deciding, summed over threads (for an
    /// external bot: its HTTP round trips).
    pub seconds: f64,
    /// The most wall-clock time a single decision took, in milliseconds.
    pub max_ms: f64,
    /// CPU time spent deciding, summed over threads (0 where the platform
    /// has no thread clock, and for an external bot, whose CPU is not the
    /// arena's).
    pub cpu_seconds: f64,
    /// The most CPU time a single decision took, in milliseconds.
    pub max_cpu_ms: f64,
    /// Whether the figures to read are wall time (an external bot: the
    /// HTTP round trip) rather than CPU time.
    pub wall_clock: bool,
    /// The doubles it said, and how the doubled hands went.
    pub doubles: Doubles,
}

impl BotStats {
    /// The seconds the player's figures count: wall time for an external
    /// bot, CPU time (one core) otherwise.
    fn counted_seconds(&self) -> f64 {
        if self.wall_clock {
            self.seconds
        } else {
            self.cpu_seconds
        }
    }

    /// Mean milliseconds per decision: CPU (one core), or the HTTP round
    /// trip of an external bot.
    pub fn ms_per_decision(&self) -> f64 {
        if self.decisions == 0 {
            0.0
        } else {
            self.counted_seconds() * 1e3 / self.decisions as f64
        }
    }

    /// The most milliseconds a decision took, on the same clock.
    pub fn max_decision_ms(&self) -> f64 {
        if self.wall_clock {
            self.max_ms
        } else {
            self.max_cpu_ms
        }
    }

    /// Decisions per second of the same clock.
    pub fn per_second(&self) -> f64 {
        let secs = self.counted_seconds();
        if secs == 0.0 {
            0.0
        } else {
            self.decisions as f64 / secs
        }
    }

    /// What the time columns measure for this player.
    pub fn clock(&self) -> &'static str {
        if self.wall_clock {
            "wall, HTTP round trip"
        } else {
            "CPU, one core"
        }
    }
}

/// Everything an arena run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaReport {
    /// Player A.
    pub a: BotStats,
    /// Player B.
    pub b: BotStats,
    /// The variant played.
    pub variant: Variant,
    /// Whether whole matches were played.
    pub matches: bool,
    /// Duplicate deals (or matches) played.
    pub units: u32,
    /// The seed of the deals.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock time.
    pub wall_seconds: f64,
    /// Recorded points A − B per seat: per deal, or per match in match mode.
    pub recorded: Estimate,
    /// Hand points A − B per seat and hand (card points + tricks).
    pub points: Estimate,
    /// A's win rate (draws half), in match mode.
    pub wins: Option<Estimate>,
    /// Hands played in all.
    pub hands: u64,
    /// Each deal's (or match's) recorded and hand points, A − B per seat,
    /// in the order of the seed's sets.
    pub each: Vec<(f64, f64)>,
}

impl ArenaReport {
    /// Writes [`ArenaReport::each`] to `path` as CSV (`set,recorded,points`).
    ///
    /// # Errors
    /// The file's.
    pub fn write_each(&self, path: &std::path::Path) -> std::io::Result<()> {
        let mut out = String::from("set,recorded,points\n");
        for (i, (r, p)) in self.each.iter().enumerate() {
            out.push_str(&format!("{i},{r},{p}\n"));
        }
        std::fs::write(path, out)
    }
}

impl fmt::Display for ArenaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (unit, units) = if self.matches {
            ("match", "matches")
        } else {
            ("deal", "deals")
        };
        let variant = serde_json::to_value(self.variant)
            .ok()
            .and_then(|v| v.as_str().map(String::from));
        writeln!(
            f,
            "arena: A = {} vs B = {}; variant {}; {} duplicate {units}, {} hands; seed {}; {} threads; {:.1} s",
            self.a.name,
            self.b.name,
            variant.unwrap_or_default(),
            self.units,
            self.hands,
            self.seed,
            self.threads,
            self.wall_seconds
        )?;
        writeln!(f)?;
        writeln!(f, "| measure (A − B, per seat) | mean | 95% interval |")?;
        writeln!(f, "| --- | ---: | --- |")?;
        let row = |f: &mut fmt::Formatter<'_>, what: &str, e: &Estimate| {
            writeln!(
                f,
                "| {what} | {:+.2} | [{:+.2}, {:+.2}] |",
                e.mean,
                e.low(),
                e.high()
            )
        };
        row(f, &format!("recorded points per {unit}"), &self.recorded)?;
        row(f, "hand points per hand", &self.points)?;
        if let Some(w) = &self.wins {
            writeln!(
                f,
                "| A's match win rate | {:.1}% | [{:.1}%, {:.1}%] |",
                w.mean * 100.0,
                w.low() * 100.0,
                w.high() * 100.0
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "| bot | decisions | ms per decision (mean) | ms (max) | decisions/s | clock |"
        )?;
        writeln!(f, "| --- | ---: | ---: | ---: | ---: | --- |")?;
        for b in [&self.a, &self.b] {
            let (mean, max, rate) = (b.ms_per_decision(), b.max_decision_ms(), b.per_second());
            writeln!(
                f,
                "| {} | {} | {mean:.3} | {max:.1} | {rate:.0} | {} |",
                b.name,
                b.decisions,
                b.clock()
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "| bot | contros (of hands defended) | recontros, Sant Vicenç | doubled hands its side recorded in |"
        )?;
        writeln!(f, "| --- | ---: | ---: | ---: |")?;
        for b in [&self.a, &self.b] {
            writeln!(f, "| {} | {} |", b.name, b.doubles)?;
        }
        let total = (self.a.decisions + self.b.decisions) as f64;
        writeln!(f)?;
        writeln!(
            f,
            "{:.0} decisions/s over all threads",
            total / self.wall_seconds.max(1e-9)
        )
    }
}
