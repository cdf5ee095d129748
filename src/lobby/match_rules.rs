//! The rules a challenge or a tournament asks its matches to play,
//! checked one way for both.

use crate::rating;
use crate::rules::{Rules, Variant};
use crate::service::Error;

/// The rules of the matches of a `noun` ("challenge", "tournament") in
/// `variant`, checked in this order: those asked for (the variant's
/// standard rules when left out) must be of `variant`, and the standard
/// ones when `rated`; then `shape` makes of them what the `noun` plays
/// (it may refuse too), and the result must be valid.
///
/// # Errors
/// `InvalidRequest`, saying what is wrong first; what `shape` returns.
pub(crate) fn match_rules(
    variant: Variant,
    asked: Option<&Rules>,
    rated: bool,
    noun: &str,
    shape: impl FnOnce(&mut Rules) -> Result<(), Error>,
) -> Result<Rules, Error> {
    let standard = rating::rated_rules(variant);
    let mut rules = asked.cloned().unwrap_or_else(|| standard.clone());
    if rules.variant != variant {
        return Err(Error::InvalidRequest(format!(
            "`rules.variant` must be the {noun}'s `variant`"
        )));
    }
    if rated && rules != standard {
        return Err(Error::InvalidRequest(format!(
            "a rated {noun} is played with the variant's standard rules: leave out `rules`"
        )));
    }
    shape(&mut rules)?;
    rules
        .validate()
        .map_err(|e| Error::InvalidRequest(e.to_string()))?;
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keep(_: &mut Rules) -> Result<(), Error> {
        Ok(())
    }

    fn refusal(r: Result<Rules, Error>) -> String {
        match r {
            Err(Error::InvalidRequest(why)) => why,
            other => panic!("not refused as invalid: {other:?}"),
        }
    }

    #[test]
    fn left_out_rules_are_the_standard_ones_rated_or_not() {
        for rated in [false, true] {
            let rules = match_rules(Variant::Pairs, None, rated, "challenge", keep).unwrap();
            assert_eq!(rules, rating::rated_rules(Variant::Pairs));
        }
    }

    #[test]
    fn each_refusal_names_the_noun_and_comes_in_order() {
        let other = rating::rated_rules(Variant::Pairs);
        let why = refusal(match_rules(
            Variant::Abarrotada3,
            Some(&other),
            true,
            "tournament",
            keep,
        ));
        assert_eq!(why, "`rules.variant` must be the tournament's `variant`");
        let odd = Rules {
            target: 0,
            ..rating::rated_rules(Variant::Pairs)
        };
        let why = refusal(match_rules(
            Variant::Pairs,
            Some(&odd),
            true,
            "challenge",
            keep,
        ));
        assert_eq!(
            why,
            "a rated challenge is played with the variant's standard rules: leave out `rules`"
        );
        let why = refusal(match_rules(
            Variant::Pairs,
            Some(&odd),
            false,
            "challenge",
            keep,
        ));
        assert_eq!(why, "invalid rules: target must be between 1 and 100000");
    }

    #[test]
    fn the_shaped_rules_are_the_ones_validated() {
        let odd = Rules {
            target: 0,
            ..rating::rated_rules(Variant::Pairs)
        };
        let fixed = match_rules(Variant::Pairs, Some(&odd), false, "tournament", |r| {
            r.target = 7;
            Ok(())
        })
        .unwrap();
        assert_eq!(fixed.target, 7);
        let why = refusal(match_rules(
            Variant::Pairs,
            None,
            false,
            "tournament",
            |r| {
                r.max_hands = Some(0);
                Ok(())
            },
        ));
        assert_eq!(why, "invalid rules: max_hands must be between 1 and 1000");
    }
}
