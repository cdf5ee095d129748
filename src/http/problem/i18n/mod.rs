//! The languages of problem documents: English (the default), Catalan and
//! Spanish, chosen by the request's `Accept-Language` (q-values honoured).
//!
//! A problem's `title` comes from its stable `code`, a rule refusal's
//! `detail` from the engine's [`RuleError`] (its data, never its English
//! sentence), and every other `detail` from [`DETAILS`]: the English
//! sentences the server writes, with `{}` where a value goes, and their
//! translations, with `{0}`, `{1}`, … in the order of the English holes. A
//! value that is itself one of those sentences (the option at fault in
//! `invalid rules: …`) is translated too; a message quoted from a parser
//! (what was wrong with a JSON body) stays as the parser wrote it, and a
//! sentence missing from the table is sent in English.

use actix_web::HttpRequest;
use actix_web::http::header::{ACCEPT_LANGUAGE, HeaderMap};

mod details;
mod rules;
mod titles;

pub use details::DETAILS;
pub use rules::rule;
pub use titles::title;

/// A language problems are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English, the default.
    #[default]
    En,
    /// Catalan.
    Ca,
    /// Spanish.
    Es,
}

impl Lang {
    /// The language tag for `Content-Language`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ca => "ca",
            Lang::Es => "es",
        }
    }

    /// The language a request asks for.
    pub fn of(req: &HttpRequest) -> Lang {
        Lang::from_headers(req.headers())
    }

    /// The language of a request's headers.
    pub fn from_headers(headers: &HeaderMap) -> Lang {
        let value = headers
            .get_all(ACCEPT_LANGUAGE)
            .filter_map(|v| v.to_str().ok())
            .collect::<Vec<_>>()
            .join(",");
        Lang::from_accept_language(&value)
    }

    /// The best language of an `Accept-Language` value (RFC 9110 §12.5.4):
    /// the supported one with the highest q-value, the first listed on a
    /// tie; `*` stands for English; English when none is acceptable.
    pub fn from_accept_language(value: &str) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for item in value.split(',') {
            let mut parts = item.split(';');
            let range = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let mut q = 1.0_f32;
            for p in parts {
                if let Some(v) = p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")) {
                    q = v.trim().parse().unwrap_or(-1.0);
                }
            }
            if !(q > 0.0 && q <= 1.0) {
                continue;
            }
            let lang = match range.split('-').next().unwrap_or("") {
                "ca" => Lang::Ca,
                "es" => Lang::Es,
                "en" | "*" => Lang::En,
                _ => continue,
            };
            if best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map_or(Lang::En, |(_, l)| l)
    }

    /// One of three texts, by language.
    pub(crate) fn pick<'a>(self, en: &'a str, ca: &'a str, es: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Ca => ca,
            Lang::Es => es,
        }
    }
}

/// The values of `text` in the holes of `template`, if it matches whole.
fn holes<'a>(template: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let mut pieces = template.split("{}");
    let mut rest = text.strip_prefix(pieces.next().unwrap_or(""))?;
    let pieces: Vec<&str> = pieces.collect();
    let mut values = Vec::with_capacity(pieces.len());
    for (i, piece) in pieces.iter().enumerate() {
        let end = if i + 1 == pieces.len() {
            rest.strip_suffix(piece).map(str::len)?
        } else {
            rest.find(piece)?
        };
        values.push(&rest[..end]);
        rest = &rest[end + piece.len()..];
    }
    rest.is_empty().then_some(values)
}

/// An English `detail` in `lang`: its translation from [`DETAILS`] (values
/// that are sentences of the table translated too), or itself.
pub fn detail(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    for [en, ca, es] in DETAILS {
        if let Some(values) = holes(en, text) {
            let mut out = lang.pick(en, ca, es).to_string();
            for (i, v) in values.iter().enumerate() {
                out = out.replace(&format!("{{{i}}}"), &detail(v, lang));
            }
            return out;
        }
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Call, Card, Phase, RuleError, Suit};

    #[test]
    fn the_best_acceptable_language_wins() {
        let cases = [
            ("", Lang::En),
            ("ca", Lang::Ca),
            ("es-ES", Lang::Es),
            ("fr, es;q=0.5, ca;q=0.8", Lang::Ca),
            ("ca;q=0.2, es;q=0.9", Lang::Es),
            ("es, ca", Lang::Es),
            ("ca;q=0, es;q=0.1", Lang::Es),
            ("ca;q=0", Lang::En),
            ("fr-FR, de", Lang::En),
            ("*;q=0.5, ca;q=0.4", Lang::En),
            ("CA-es;Q=0.7", Lang::Ca),
            ("es;q=bad, ca;q=0.3", Lang::Ca),
            ("en-GB;q=0.9, es;q=0.8", Lang::En),
        ];
        for (value, lang) in cases {
            assert_eq!(Lang::from_accept_language(value), lang, "{value:?}");
        }
    }

    #[test]
    fn sentences_with_values_are_translated_with_their_values() {
        assert_eq!(
            detail("the match is at version 7, not 5", Lang::Ca),
            "la partida és a la versió 7, no a la 5"
        );
        assert_eq!(
            detail(
                "invalid rules: target must be between 1 and 100000",
                Lang::Es
            ),
            "reglas no válidas: target debe estar entre 1 y 100000"
        );
        assert_eq!(
            detail("limit: 5 hints per second per client address", Lang::Ca),
            "límit: 5 suggeriments per segon per adreça de client"
        );
        // A parser's message stays as written; unknown sentences stay English.
        assert_eq!(
            detail("invalid JSON body: EOF while parsing", Lang::Es),
            "cuerpo JSON no válido: EOF while parsing"
        );
        assert_eq!(detail("something new", Lang::Ca), "something new");
        assert_eq!(
            detail("no match with this id", Lang::En),
            "no match with this id"
        );
    }

    #[test]
    fn every_table_sentence_has_as_many_values_in_each_language() {
        for [en, ca, es] in DETAILS {
            let n = en.matches("{}").count();
            for t in [ca, es] {
                for i in 0..n {
                    assert!(t.contains(&format!("{{{i}}}")), "{t} lacks {{{i}}}");
                }
                assert!(!t.contains(&format!("{{{n}}}")), "{t}");
            }
        }
        for (code, t) in titles::TITLES {
            assert!(t.iter().all(|s| !s.is_empty()), "{code}");
        }
    }

    #[test]
    fn rule_refusals_read_in_each_language() {
        let c: Card = "1C".parse().unwrap();
        assert_eq!(rule(&RuleError::MustBeat(c), Lang::En), "must beat 1C");
        assert_eq!(
            rule(&RuleError::MustFollowSuit(Suit::Oros), Lang::Ca),
            "has de seguir el pal: juga una carta d'oros (O)"
        );
        assert_eq!(
            rule(&RuleError::MustFollowSuit(Suit::Espases), Lang::Es),
            "debes seguir el palo: juega una carta de espadas (E)"
        );
        assert_eq!(
            rule(
                &RuleError::WrongCall {
                    expected: Call::SantVicenc
                },
                Lang::Ca
            ),
            "ara només pots dir Sant Vicenç o passar"
        );
        assert_eq!(
            rule(
                &RuleError::WrongPhase {
                    phase: Phase::Playing,
                    expected: Phase::Doubling
                },
                Lang::Es
            ),
            "la partida está en la fase playing y esta acción necesita la fase doubling"
        );
        assert_eq!(
            rule(
                &RuleError::ForcedLowest {
                    suit: None,
                    counting_allowed: true
                },
                Lang::Ca
            ),
            "modalitat obligada: has de jugar la carta més baixa d'un dels pals o una carta que compti punts"
        );
    }
}
