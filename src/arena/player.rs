//! The players an arena seats: a house bot by name, a Monte Carlo bot with
//! its own budget, or an external bot reached over HTTP.

use std::time::Duration;

use rand::rngs::Xoshiro256PlusPlus;

use super::ArenaError;
use super::external::{self, Table};
use crate::bots::{
    self, Answers, Bot, ExpertBot, MonteCarloBot, Plan, Rollout, Search, SolvedDoubles,
};
use crate::rules::Action;
use crate::rules::view::GameView;

/// A player of the arena.
pub enum Player {
    /// A house bot.
    House(&'static dyn Bot),
    /// The Monte Carlo bot with a budget other than the house one.
    MonteCarlo(MonteCarloBot),
    /// The expert bot with a budget other than the house one.
    Expert(ExpertBot),
    /// An external bot: an HTTP endpoint that is sent the seat's view as the
    /// API shows it (`POST`, JSON) and answers with one of its
    /// `legal_actions` (see [`external`]).
    External {
        /// The endpoint, as given.
        url: String,
        /// A connection-pooling client.
        agent: ureq::Agent,
    },
}

impl Player {
    /// The player a name stands for: a house bot name (`heuristic`,
    /// `random`, `montecarlo`), `montecarlo:<playouts>:<max_ms>[:heuristic|greedy][:infer]`
    /// for a Monte Carlo bot with that budget (and rollout policy),
    /// `expert:<samples>:<nodes>[:<max_tricks>][:plain][:hdoubles][:twosided|maxn|reply|whole]`
    /// for an expert bot with that budget per card decision (`plain`:
    /// without the bidding inference; `hdoubles`: the others' doubles
    /// expected by the heuristic rules; the last: the individual variants'
    /// search), `expert-v1` to `expert-v4` for the fixed versions of the
    /// expert, `expert-v4:<deals>:<nodes>[:<played>]` for `expert-v4` with
    /// that budget a double, or an `http://` URL for an external bot.
    ///
    /// # Errors
    /// [`ArenaError::UnknownBot`] for anything else.
    pub fn parse(name: &str) -> Result<Player, ArenaError> {
        if name.starts_with("http://") {
            let agent = ureq::Agent::config_builder()
                .timeout_global(Some(Duration::from_secs(30)))
                .build()
                .into();
            return Ok(Player::External {
                url: name.to_string(),
                agent,
            });
        }
        if let Some(budget) = name.strip_prefix("montecarlo:") {
            let parts: Vec<&str> = budget.split(':').collect();
            let number = |i: usize| parts.get(i).and_then(|p| p.parse::<u64>().ok());
            // After the budget: the rollout and `infer`, in any order.
            let mut bot = Some(MonteCarloBot::DEFAULT);
            for option in parts.iter().skip(2) {
                bot = bot.and_then(|b| match *option {
                    "heuristic" => Some(MonteCarloBot {
                        rollout: Rollout::Heuristic,
                        ..b
                    }),
                    "greedy" => Some(MonteCarloBot {
                        rollout: Rollout::Greedy,
                        ..b
                    }),
                    "infer" => Some(MonteCarloBot { infer: true, ..b }),
                    _ => None,
                });
            }
            if let (Some(playouts), Some(max_ms), Some(bot), true) =
                (number(0), number(1), bot, parts.len() <= 4)
            {
                let playouts = u32::try_from(playouts).unwrap_or(u32::MAX);
                return Ok(Player::MonteCarlo(MonteCarloBot {
                    playouts,
                    max_ms,
                    ..bot
                }));
            }
        }
        // Fixed versions of the expert, for measuring one against another.
        match name {
            "expert-v1" => return Ok(Player::Expert(ExpertBot::DEFAULT)),
            "expert-v2" => return Ok(Player::Expert(ExpertBot::V2)),
            "expert-v3" => return Ok(Player::Expert(ExpertBot::V3)),
            "expert-v4" => return Ok(Player::Expert(ExpertBot::V4)),
            _ => {}
        }
        if let Some(budget) = name.strip_prefix("expert-v4:") {
            return solved_doubles(budget).ok_or_else(|| ArenaError::UnknownBot(name.to_string()));
        }
        if let Some(budget) = name.strip_prefix("expert:") {
            return expert(budget).ok_or_else(|| ArenaError::UnknownBot(name.to_string()));
        }
        bots::by_name(name)
            .map(Player::House)
            .ok_or_else(|| ArenaError::UnknownBot(name.to_string()))
    }

    /// Whether the player is an external bot (whose time is the wall time
    /// of its HTTP round trip, its CPU not being the arena's to measure).
    pub fn is_external(&self) -> bool {
        matches!(self, Player::External { .. })
    }

    /// The player's choice for `view` (whose `legal_actions` is not empty),
    /// with, for an external bot, the wall time of its HTTP round trip.
    /// `table` is what the API's view adds to `view`, sent to external bots.
    ///
    /// # Errors
    /// [`ArenaError::External`] when an external bot fails to answer, answers
    /// something unreadable, or answers an action that is not legal.
    pub fn choose(
        &self,
        view: &GameView,
        table: &Table,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Result<(Action, Option<Duration>), ArenaError> {
        match self {
            Player::House(bot) => Ok((bot.choose(view, rng), None)),
            Player::MonteCarlo(bot) => Ok((bot.choose(view, rng), None)),
            Player::Expert(bot) => Ok((bot.choose(view, rng), None)),
            Player::External { url, agent } => {
                let answer = external::ask(agent, url, view, table)?;
                Ok((answer.action, Some(answer.round_trip)))
            }
        }
    }
}

/// The expert player of
/// `<samples>:<nodes>[:<max_tricks>][:plain][:hdoubles][:twosided|maxn|reply|whole]`,
/// without the wall-clock cap (its Monte Carlo player keeps its own). The
/// samples, nodes and `max_tricks` apply to every variant's plan; `plain`
/// turns off the bidding inference of the pairs game (the individual
/// variants never use it); `hdoubles` has its bid search expect the
/// others to answer doubles by the heuristic rules
/// ([`Answers::HeuristicDoubles`]); the search names the individual variants'
/// search (the pairs game's is two-sided, except `whole`: the whole-hand
/// solver in every variant).
/// `expert-v4:<deals>:<nodes>[:<played>]`: `expert-v4` whose doubles have
/// that budget (and first cards played by playouts), without their
/// wall-clock cap (counts alone decide).
fn solved_doubles(budget: &str) -> Option<Player> {
    let v4 = ExpertBot::V4.doubles?;
    let parts: Vec<&str> = budget.split(':').collect();
    let (deals, nodes, played) = match parts.as_slice() {
        [d, n] => (d, n, None),
        [d, n, p] => (d, n, Some(p)),
        _ => return None,
    };
    let deals = deals.parse::<u32>().ok().filter(|&n| n > 0)?;
    let nodes = nodes.parse::<u64>().ok().filter(|&n| n > 0)?;
    let played = match played {
        Some(p) => p.parse::<u8>().ok().filter(|&p| p <= 4)?,
        None => v4.played,
    };
    Some(Player::Expert(ExpertBot {
        doubles: Some(SolvedDoubles {
            deals,
            nodes,
            max_ms: u64::MAX / 4,
            played,
        }),
        ..ExpertBot::V4
    }))
}

fn expert(budget: &str) -> Option<Player> {
    let parts: Vec<&str> = budget.split(':').collect();
    let [samples, nodes, options @ ..] = parts.as_slice() else {
        return None;
    };
    let mut rest = options;
    let samples = samples.parse::<u32>().ok().filter(|&n| n > 0)?;
    let nodes = nodes.parse::<u64>().ok()?;
    // The options, each at most once and in this order.
    let mut tricks = None;
    if let Some(t) = rest.first().and_then(|t| t.parse::<u8>().ok()) {
        tricks = Some(t);
        rest = &rest[1..];
    }
    let plain = rest.first() == Some(&"plain");
    if plain {
        rest = &rest[1..];
    }
    let hdoubles = rest.first() == Some(&"hdoubles");
    if hdoubles {
        rest = &rest[1..];
    }
    let search = match rest {
        [] => None,
        ["twosided"] => Some(Search::TwoSided),
        ["maxn"] => Some(Search::MaxN),
        ["reply"] => Some(Search::Reply),
        ["whole"] => Some(Search::Whole),
        _ => return None,
    };
    let mut bot = ExpertBot {
        // Counts alone decide: the same seed gives the same games.
        max_ms: u64::MAX / 4,
        ..ExpertBot::DEFAULT
    }
    .each_plan(|p| Plan {
        samples,
        nodes,
        max_tricks: tricks.unwrap_or(p.max_tricks),
        ..p
    });
    if plain {
        bot.pairs.monte_carlo.infer = false;
    }
    if hdoubles {
        bot = bot.each_plan(|p| Plan {
            monte_carlo: MonteCarloBot {
                answers: Answers::HeuristicDoubles,
                ..p.monte_carlo
            },
            ..p
        });
    }
    if search == Some(Search::Whole) {
        bot.pairs.search = Search::Whole;
    }
    if let Some(search) = search {
        bot.abarrotada.search = search;
        bot.abarrotada3.search = search;
    }
    Some(Player::Expert(bot))
}
