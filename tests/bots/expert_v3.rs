//! `expert-v3`: the expert whose bid search expects a double to be
//! answered by the heuristic rules ([`Answers::HeuristicDoubles`]) says
//! contro more often than `expert-v1`, which expects the fitted model's
//! near-certain recontro, and otherwise plays as `expert-v1`.

use botifarra::bots::{Answers, Bot, ExpertBot, MonteCarloBot, playable};
use botifarra::rules::contract::Call;
use botifarra::rules::{Action, Phase, Variant};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::bid_one_hand;

#[test]
fn expert_v3_differs_from_v1_only_in_how_the_pairs_bid_search_expects_doubles_answered() {
    let (v1, v3) = (ExpertBot::DEFAULT, ExpertBot::V3);
    assert_eq!(v1.pairs.monte_carlo.answers, Answers::Fitted);
    assert_eq!(v3.pairs.monte_carlo.answers, Answers::HeuristicDoubles);
    let mut same = v3;
    same.pairs.monte_carlo.answers = Answers::Fitted;
    assert_eq!(same, v1);
    assert_eq!(v3.plan(Variant::Abarrotada), v1.plan(Variant::Abarrotada));
    assert_eq!(v3.plan(Variant::Abarrotada3), v1.plan(Variant::Abarrotada3));
}

#[test]
fn expecting_heuristic_answers_the_bid_search_says_contro_more_often() {
    let fitted = MonteCarloBot {
        playouts: 120,
        max_ms: 600_000,
        ..ExpertBot::DEFAULT.pairs.monte_carlo
    };
    let heuristic_answers = MonteCarloBot {
        answers: Answers::HeuristicDoubles,
        ..fitted
    };
    let contro = Action::Double { call: Call::Contro };
    let (mut positions, mut by_fitted, mut by_heuristic) = (0, 0, 0);
    for n in 0..400u64 {
        let mut seed = [3u8; 32];
        seed[..8].copy_from_slice(&n.to_le_bytes());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(n);
        // The first defender to speak, with a contro to say or not.
        let m = bid_one_hand(seed, &mut rng, |m| {
            m.phase() == Phase::Doubling
                && m.turn()
                    .is_some_and(|s| m.legal_actions(s).contains(&contro))
        });
        if m.phase() != Phase::Doubling {
            continue;
        }
        let view = m.view(m.turn());
        assert!(playable(&view.legal_actions).is_empty());
        positions += 1;
        let said = |bot: &MonteCarloBot| {
            let a = bot.choose(&view, &mut Xoshiro256PlusPlus::seed_from_u64(n));
            assert!(view.legal_actions.contains(&a));
            u32::from(a == contro)
        };
        by_fitted += said(&fitted);
        by_heuristic += said(&heuristic_answers);
        if positions == 60 {
            break;
        }
    }
    assert_eq!(positions, 60, "too few contro decisions were dealt");
    assert!(
        by_heuristic > by_fitted,
        "contros: {by_heuristic} expecting heuristic answers, {by_fitted} expecting the model's"
    );
}
