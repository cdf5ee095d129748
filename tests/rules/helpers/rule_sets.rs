//! The rule sets that change which cards are legal, shared by the tests
//! and the legal-move benchmark (which includes this file).

use botifarra::rules::{Rules, Variant};

/// One rule set for each option that changes which cards are legal: the
/// defaults, forced mode, must-trump, abarrotada, and abarrotada for three
/// with must-trump. Benchmarks and tests of the legal-move code sample
/// positions under each.
pub fn play_rule_sets() -> Vec<Rules> {
    vec![
        Rules::default(),
        Rules {
            forced: true,
            ..Rules::default()
        },
        Rules {
            must_trump: true,
            ..Rules::default()
        },
        Rules {
            variant: Variant::Abarrotada,
            ..Rules::default()
        },
        Rules {
            variant: Variant::Abarrotada3,
            must_trump: true,
            ..Rules::default()
        },
    ]
}
