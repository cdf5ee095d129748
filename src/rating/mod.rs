//! Player ratings: the Glicko-2 system (Mark Glickman, "Example of the
//! Glicko-2 system", 2013), pure and without I/O.
//!
//! A [`Rating`] is kept on the familiar scale (1500 for a new player, a
//! rating deviation of 350, a volatility of 0.06). [`Rating::update`] takes
//! the results of one rating period against opponents as they stood at its
//! start; [`Rating::idle`] is the update for a period without games, in
//! which only the deviation grows.
//!
//! Botifarra is played by sides of two: [`side_opponent`] folds the two
//! players of the opposing side into the single opponent each player of a
//! side is rated against.

use std::f64::consts::PI;

/// The factor between the Glicko scale and the Glicko-2 scale.
pub const SCALE: f64 = 173.7178;

/// The rating of a new player.
pub const DEFAULT_RATING: f64 = 1500.0;

/// The deviation of a new player.
pub const DEFAULT_DEVIATION: f64 = 350.0;

/// The volatility of a new player.
pub const DEFAULT_VOLATILITY: f64 = 0.06;

/// The largest deviation a rating may have: that of a new player.
pub const MAX_DEVIATION: f64 = DEFAULT_DEVIATION;

/// How fast volatility may change (Glickman suggests 0.3 to 1.2).
pub const DEFAULT_TAU: f64 = 0.5;

/// Above this deviation a rating is provisional: the player has not played
/// enough rated matches for it to mean much (a new player's is 350; a few
/// matches bring it under).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// When the volatility iteration stops.
const CONVERGENCE: f64 = 1e-6;

/// A player's rating, on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation: how uncertain `rating` is.
    pub deviation: f64,
    /// The volatility: how erratic the player's results are.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: DEFAULT_RATING,
            deviation: DEFAULT_DEVIATION,
            volatility: DEFAULT_VOLATILITY,
        }
    }
}

/// One game of a rating period: the opponent as it stood at the start of
/// the period, and the score (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// The opponent.
    pub opponent: Rating,
    /// The score, between 0 and 1.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// Whether the rating is still provisional (its deviation above
    /// [`PROVISIONAL_DEVIATION`]).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The expected score of this player against `opponent`.
    pub fn expected_score(&self, opponent: &Rating) -> f64 {
        expected(
            (self.rating - DEFAULT_RATING) / SCALE,
            (opponent.rating - DEFAULT_RATING) / SCALE,
            opponent.deviation / SCALE,
        )
    }

    /// The rating after a period without games: the deviation grows by the
    /// volatility (never past [`MAX_DEVIATION`]); rating and volatility stay.
    #[must_use]
    pub fn idle(&self) -> Rating {
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: grown.min(MAX_DEVIATION),
            ..*self
        }
    }

    /// The rating after a period with these games, with the system constant
    /// `tau` (see [`DEFAULT_TAU`]). With no games this is [`Rating::idle`].
    #[must_use]
    pub fn update(&self, games: &[Game], tau: f64) -> Rating {
        if games.is_empty() {
            return self.idle();
        }
        let mu = (self.rating - DEFAULT_RATING) / SCALE;
        let phi = self.deviation / SCALE;

        // The estimated variance from the games alone, and the improvement
        // they suggest.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - DEFAULT_RATING) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            inv_v += gj * gj * e * (1.0 - e);
            sum += gj * (game.score.clamp(0.0, 1.0) - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;

        let sigma = new_volatility(phi, self.volatility, v, delta, tau);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating {
            rating: mu_new * SCALE + DEFAULT_RATING,
            deviation: (phi_new * SCALE).min(MAX_DEVIATION),
            volatility: sigma,
        }
    }
}

/// The new volatility, by the Illinois variant of regula falsi (step 5 of
/// Glickman's procedure).
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut lo = a;
    let mut hi = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_lo = f(lo);
    let mut f_hi = f(hi);
    // Bounded: the bracket shrinks every step; the bound only guards
    // against pathological input (NaN).
    for _ in 0..200 {
        if (hi - lo).abs() <= CONVERGENCE {
            break;
        }
        let c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
        let f_c = f(c);
        if f_c * f_hi <= 0.0 {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo /= 2.0;
        }
        hi = c;
        f_hi = f_c;
    }
    (lo / 2.0).exp()
}

/// The single opponent a player is rated against when the opposing side
/// is a pair: the mean of their ratings, with the deviation of that mean
/// taken as the root mean square of theirs (two uncertain players make an
/// opponent as uncertain as a typical one of them, not less), and the mean
/// volatility.
pub fn side_opponent(a: &Rating, b: &Rating) -> Rating {
    Rating {
        rating: (a.rating + b.rating) / 2.0,
        deviation: ((a.deviation * a.deviation + b.deviation * b.deviation) / 2.0).sqrt(),
        volatility: (a.volatility + b.volatility) / 2.0,
    }
}

/// The deviation of a house bot's anchored rating.
pub const ANCHOR_DEVIATION: f64 = 30.0;

/// The rating a house bot holds in every rated pool, fixed so that the
/// scale means the same over time: `medium` (the rule-based player) is the
/// scale's 1500, and the others sit where their arena results against it
/// put them (docs/arena.md). Anchors never move; players move against them.
/// `None` for a name that is no house bot.
pub fn house_anchor(bot: &str) -> Option<Rating> {
    let rating = match bot {
        "random" => 700.0,
        "easy" => 1200.0,
        "medium" | "heuristic" => 1500.0,
        "hard" | "montecarlo" => 1800.0,
        "expert" => 1850.0,
        _ => return None,
    };
    Some(Rating {
        rating,
        deviation: ANCHOR_DEVIATION,
        volatility: DEFAULT_VOLATILITY,
    })
}

/// The rated pool of a variant: its name (`pairs`, `abarrotada`,
/// `abarrotada3`). A player has one rating per pool.
pub fn pool(variant: crate::rules::Variant) -> &'static str {
    use crate::rules::Variant;
    match variant {
        Variant::Pairs => "pairs",
        Variant::Abarrotada => "abarrotada",
        Variant::Abarrotada3 => "abarrotada3",
    }
}

/// The rules a rated match of `variant` is played with: every option at
/// its default (target 101, `full` shuffle, the first dealer drawn).
pub fn rated_rules(variant: crate::rules::Variant) -> crate::rules::Rules {
    crate::rules::Rules {
        variant,
        ..crate::rules::Rules::default()
    }
}
