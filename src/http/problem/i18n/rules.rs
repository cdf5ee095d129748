//! Rule refusals in Catalan and Spanish, from the engine's data (never
//! from its English sentence).

use super::Lang;
use crate::rules::{Call, RuleError, Suit};

/// "of <suit> (<letter>)" in Catalan (with its elision) and Spanish.
fn of_suit(s: Suit, lang: Lang) -> String {
    let name = match lang {
        Lang::En => return format!("suit {s}"),
        Lang::Ca => ["d'oros", "de copes", "d'espases", "de bastos"][s as usize],
        Lang::Es => ["de oros", "de copas", "de espadas", "de bastos"][s as usize],
    };
    format!("{name} ({s})")
}

/// The name of a double as players say it.
fn call_name(c: Call) -> &'static str {
    match c {
        Call::SantVicenc => "Sant Vicenç",
        other => other.as_str(),
    }
}

/// A rule refusal's sentence in `lang` (English: the engine's own).
pub fn rule(e: &RuleError, lang: Lang) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    let l = |ca: String, es: String| if lang == Lang::Ca { ca } else { es };
    match *e {
        RuleError::WrongPhase { phase, expected } => {
            let (p, x) = (phase.as_str(), expected.as_str());
            l(
                format!("la partida és a la fase {p} i aquesta acció necessita la fase {x}"),
                format!("la partida está en la fase {p} y esta acción necesita la fase {x}"),
            )
        }
        RuleError::NotYourTurn { turn: Some(t) } => l(
            format!("no és el teu torn: ara li toca al seient {t}"),
            format!("no es tu turno: ahora le toca al asiento {t}"),
        ),
        RuleError::NotYourTurn { turn: None } => {
            l("no és el teu torn".into(), "no es tu turno".into())
        }
        RuleError::NotInHand(c) => l(
            format!("no tens la carta {c} a la mà"),
            format!("no tienes la carta {c} en la mano"),
        ),
        RuleError::MustFollowSuit(s) => {
            let of = of_suit(s, lang);
            l(
                format!("has de seguir el pal: juga una carta {of}"),
                format!("debes seguir el palo: juega una carta {of}"),
            )
        }
        RuleError::MustBeat(c) => l(
            format!("has de superar la carta {c} amb una carta del mateix pal"),
            format!("debes superar la carta {c} con una carta del mismo palo"),
        ),
        RuleError::MustTrumpToBeat(c) => l(
            format!("has de jugar un triomf que superi la carta {c}"),
            format!("debes jugar un triunfo que supere la carta {c}"),
        ),
        RuleError::MustTrump => l("has de jugar triomf".into(), "debes jugar triunfo".into()),
        RuleError::ForcedLowest {
            suit,
            counting_allowed,
        } => {
            let (ca_of, es_of) = match suit {
                Some(s) => (of_suit(s, Lang::Ca), of_suit(s, Lang::Es)),
                None => ("d'un dels pals".into(), "de alguno de los palos".into()),
            };
            let (ca_or, es_or) = if counting_allowed {
                (
                    " o una carta que compti punts",
                    " o una carta que cuente puntos",
                )
            } else {
                ("", "")
            };
            l(
                format!("modalitat obligada: has de jugar la carta més baixa {ca_of}{ca_or}"),
                format!("modalidad obligada: debes jugar la carta más baja {es_of}{es_or}"),
            )
        }
        RuleError::MustNameTrump => l(
            "t'han delegat l'elecció: has de triar un pal o botifarra".into(),
            "te han delegado la elección: debes elegir un palo o botifarra".into(),
        ),
        RuleError::EstevetOnlyInAbarrotada => l(
            "l'estevet només existeix a l'abarrotada".into(),
            "el estevet solo existe en la abarrotada".into(),
        ),
        RuleError::WrongCall { expected } => {
            let x = call_name(expected);
            l(
                format!("ara només pots dir {x} o passar"),
                format!("ahora solo puedes decir {x} o pasar"),
            )
        }
    }
}
