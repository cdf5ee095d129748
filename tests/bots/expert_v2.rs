//! `expert-v2`: the expert whose sampled deals are solved whole
//! ([`Search::Whole`]) searches from its plan's first trick on, plays only
//! legal cards, and decides alike on views that hide different cards.

use botifarra::bots::{self, ExpertBot, MonteCarloBot, Plan, Search};
use botifarra::rules::{Match, Phase, Rules};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// `ExpertBot::V2`'s pairs plan on a small budget (debug builds are slow).
const QUICK_V2: ExpertBot = ExpertBot {
    pairs: Plan {
        samples: 3,
        nodes: 3_000_000,
        max_tricks: 7,
        monte_carlo: MonteCarloBot {
            playouts: 40,
            max_ms: 60_000,
            infer: true,
            ..MonteCarloBot::DEFAULT
        },
        ..ExpertBot::V2.pairs
    },
    min_samples: 1,
    max_ms: 600_000,
    ..ExpertBot::V2
};

#[test]
fn expert_v2_solves_whole_deals_from_its_first_trick_on() {
    assert_eq!(ExpertBot::V2.pairs.search, Search::Whole);
    const { assert!(ExpertBot::V2.pairs.max_tricks > ExpertBot::DEFAULT.pairs.max_tricks) };
    let heuristic = bots::by_name("heuristic").unwrap();
    let plan = QUICK_V2.pairs;
    for n in 0..2u8 {
        let rules = Rules {
            max_hands: Some(1),
            must_trump: n == 1,
            ..Rules::default()
        };
        let mut m = Match::new(rules, [n + 7; 32]).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(n));
        let mut events = Vec::new();
        let (mut early, mut searched) = (0, 0);
        while m.phase() != Phase::MatchOver {
            let seat = m.turn().unwrap();
            let view = m.view(Some(seat));
            let cards = bots::playable(&view.legal_actions);
            if view.phase == Phase::Playing && cards.len() >= 2 {
                let d = QUICK_V2.decide(&view, cards, &mut rng);
                if view.hand.as_ref().map_or(0, Vec::len) > usize::from(plan.max_tricks) {
                    assert_eq!(d, None);
                    early += 1;
                } else {
                    let d = d.expect("every late decision is searched");
                    assert!(cards.contains(d.card));
                    assert!(d.samples >= 1 && d.nodes > 0);
                    searched += 1;
                }
            }
            let a = heuristic.choose(&view, &mut rng);
            m.apply(seat, a, &mut events).unwrap();
        }
        assert!(
            early >= 5 && searched >= 5,
            "{early} early, {searched} searched"
        );
    }
}
