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

use crate::rules::{Call, RuleError, Suit};

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
    fn pick<'a>(self, en: &'a str, ca: &'a str, es: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Ca => ca,
            Lang::Es => es,
        }
    }
}

/// `(code, [English, Catalan, Spanish])`: the title of each problem code.
const TITLES: &[(&str, [&str; 3])] = &[
    (
        "invalid_request",
        [
            "Invalid request",
            "Petició no vàlida",
            "Solicitud no válida",
        ],
    ),
    (
        "unauthorized",
        ["Unauthorized", "No autoritzat", "No autorizado"],
    ),
    ("forbidden", ["Forbidden", "Prohibit", "Prohibido"]),
    (
        "match_not_found",
        [
            "Match not found",
            "No s'ha trobat la partida",
            "Partida no encontrada",
        ],
    ),
    (
        "not_found",
        ["Not found", "No s'ha trobat", "No encontrado"],
    ),
    (
        "method_not_allowed",
        [
            "Method not allowed",
            "Mètode no permès",
            "Método no permitido",
        ],
    ),
    (
        "payload_too_large",
        [
            "Payload too large",
            "Cos massa gran",
            "Cuerpo demasiado grande",
        ],
    ),
    (
        "unsupported_media_type",
        [
            "Unsupported media type",
            "Tipus de contingut no admès",
            "Tipo de contenido no admitido",
        ],
    ),
    (
        "request_timeout",
        [
            "Request timeout",
            "Temps d'espera esgotat",
            "Tiempo de espera agotado",
        ],
    ),
    (
        "headers_too_large",
        [
            "Request header fields too large",
            "Capçaleres massa grans",
            "Cabeceras demasiado grandes",
        ],
    ),
    (
        "wrong_phase",
        ["Wrong phase", "Fase equivocada", "Fase incorrecta"],
    ),
    (
        "not_your_turn",
        ["Not your turn", "No és el teu torn", "No es tu turno"],
    ),
    (
        "illegal_move",
        ["Illegal move", "Jugada no permesa", "Jugada no permitida"],
    ),
    (
        "version_conflict",
        [
            "Version conflict",
            "Conflicte de versió",
            "Conflicto de versión",
        ],
    ),
    (
        "idempotency_key_reused",
        [
            "Idempotency key reused",
            "Clau d'idempotència reutilitzada",
            "Clave de idempotencia reutilizada",
        ],
    ),
    (
        "rate_limited",
        [
            "Too many requests",
            "Massa peticions",
            "Demasiadas solicitudes",
        ],
    ),
    (
        "store_unavailable",
        [
            "Store unavailable",
            "Magatzem no disponible",
            "Almacén no disponible",
        ],
    ),
    ("busy", ["Busy", "Servidor ocupat", "Servidor ocupado"]),
    (
        "store_full",
        ["Store full", "Magatzem ple", "Almacén lleno"],
    ),
    (
        "match_too_large",
        [
            "Match too large",
            "Partida massa llarga",
            "Partida demasiado larga",
        ],
    ),
    (
        "internal_error",
        ["Internal error", "Error intern", "Error interno"],
    ),
];

/// The title of a problem code in `lang` (the code itself if unknown).
pub fn title(code: &str, lang: Lang) -> &'static str {
    TITLES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or("Error", |(_, t)| lang.pick(t[0], t[1], t[2]))
}

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

/// `[English, Catalan, Spanish]` of every sentence the server writes in a
/// problem's `detail`, besides rule refusals. More specific sentences come
/// before more general ones that would also match.
pub const DETAILS: &[[&str; 3]] = &[
    // Matches and tokens.
    [
        "no match with this id",
        "no hi ha cap partida amb aquest identificador",
        "no hay ninguna partida con este identificador",
    ],
    [
        "the match is at version {}, not {}",
        "la partida és a la versió {0}, no a la {1}",
        "la partida está en la versión {0}, no en la {1}",
    ],
    [
        "this token is not a seat token of this match",
        "aquest token no és el de cap seient d'aquesta partida",
        "este token no es el de ningún asiento de esta partida",
    ],
    [
        "send the seat token as `Authorization: Bearer <token>`",
        "envia el token del seient com a `Authorization: Bearer <token>`",
        "envía el token del asiento como `Authorization: Bearer <token>`",
    ],
    [
        "the Authorization header must be `Bearer <seat token>`",
        "la capçalera Authorization ha de ser `Bearer <token del seient>`",
        "la cabecera Authorization debe ser `Bearer <token del asiento>`",
    ],
    [
        "send the seat token either as `Authorization: Bearer` or as `access_token`, not both",
        "envia el token del seient o bé com a `Authorization: Bearer` o bé com a `access_token`, no de les dues maneres",
        "envía el token del asiento como `Authorization: Bearer` o como `access_token`, no de las dos maneras",
    ],
    [
        "access_token must be a seat token",
        "access_token ha de ser el token d'un seient",
        "access_token debe ser el token de un asiento",
    ],
    [
        "send the metrics token as `Authorization: Bearer <token>`",
        "envia el token de mètriques com a `Authorization: Bearer <token>`",
        "envía el token de métricas como `Authorization: Bearer <token>`",
    ],
    [
        "this token acts for seat {}, not seat {}",
        "aquest token juga pel seient {0}, no pel seient {1}",
        "este token juega por el asiento {0}, no por el asiento {1}",
    ],
    // Acting.
    [
        "this Idempotency-Key was used for a different request; send a new key with a new request",
        "aquesta Idempotency-Key ja es va fer servir per a una altra petició; envia una clau nova amb cada petició nova",
        "esta Idempotency-Key ya se usó para otra solicitud; envía una clave nueva con cada solicitud nueva",
    ],
    [
        "the match changed under {} attempts in a row; nothing was done, retry",
        "la partida ha canviat durant {0} intents seguits; no s'ha fet res, torna-ho a provar",
        "la partida ha cambiado durante {0} intentos seguidos; no se ha hecho nada, vuelve a intentarlo",
    ],
    [
        "a match deals at most {} hands; this one can still be read but not dealt again",
        "una partida reparteix com a màxim {0} mans; aquesta encara es pot llegir, però no es pot tornar a repartir",
        "una partida reparte como máximo {0} manos; esta aún se puede leer, pero no se puede volver a repartir",
    ],
    [
        "every hint slot is taken; retry later",
        "tots els llocs per a suggeriments estan ocupats; torna-ho a provar més tard",
        "todos los huecos para sugerencias están ocupados; vuelve a intentarlo más tarde",
    ],
    [
        "If-Match must be the match version or a view's ETag, e.g. `\"12\"`",
        "If-Match ha de ser la versió de la partida o l'ETag d'una vista, p. ex. `\"12\"`",
        "If-Match debe ser la versión de la partida o el ETag de una vista, p. ej. `\"12\"`",
    ],
    [
        "Idempotency-Key must be 1 to 200 visible ASCII characters",
        "Idempotency-Key ha de tenir d'1 a 200 caràcters ASCII visibles",
        "Idempotency-Key debe tener de 1 a 200 caracteres ASCII visibles",
    ],
    [
        "expected_version and If-Match disagree",
        "expected_version i If-Match no coincideixen",
        "expected_version e If-Match no coinciden",
    ],
    [
        "the body must be an action object",
        "el cos ha de ser un objecte d'acció",
        "el cuerpo debe ser un objeto de acción",
    ],
    [
        "seat must be a seat number",
        "seat ha de ser un número de seient",
        "seat debe ser un número de asiento",
    ],
    [
        "{} must be a non-negative integer",
        "{0} ha de ser un enter no negatiu",
        "{0} debe ser un entero no negativo",
    ],
    // Creating a match.
    [
        "invalid rules: {}",
        "regles no vàlides: {0}",
        "reglas no válidas: {0}",
    ],
    [
        "target must be between 1 and 100000",
        "target ha de ser entre 1 i 100000",
        "target debe estar entre 1 y 100000",
    ],
    [
        "max_hands must be between 1 and 1000",
        "max_hands ha de ser entre 1 i 1000",
        "max_hands debe estar entre 1 y 1000",
    ],
    [
        "forced and must_trump cannot be combined",
        "forced i must_trump no es poden combinar",
        "forced y must_trump no se pueden combinar",
    ],
    [
        "forced mode is defined for the pairs game only",
        "la modalitat obligada només existeix en el joc per parelles",
        "la modalidad obligada solo existe en el juego por parejas",
    ],
    [
        "first_dealer is not a seat of this variant",
        "first_dealer no és cap seient d'aquesta variant",
        "first_dealer no es ningún asiento de esta variante",
    ],
    [
        "this variant has {} seats; `seats` lists {}",
        "aquesta variant té {0} seients; `seats` en llista {1}",
        "esta variante tiene {0} asientos; `seats` enumera {1}",
    ],
    [
        "seed must be 64 hexadecimal digits (256 bits)",
        "seed ha de tenir 64 dígits hexadecimals (256 bits)",
        "seed debe tener 64 dígitos hexadecimales (256 bits)",
    ],
    [
        "unknown bot {}; house bots: {}",
        "bot desconegut {0}; bots de la casa: {1}",
        "bot desconocido {0}; bots de la casa: {1}",
    ],
    [
        "seat names are at most {} characters",
        "els noms dels seients tenen com a màxim {0} caràcters",
        "los nombres de los asientos tienen como máximo {0} caracteres",
    ],
    [
        "seat names must be printable text; U+{} is not allowed",
        "els noms dels seients han de ser text imprimible; U+{0} no s'hi admet",
        "los nombres de los asientos deben ser texto imprimible; U+{0} no se admite",
    ],
    [
        "move_timeout_ms must be between 100 and 86400000",
        "move_timeout_ms ha de ser entre 100 i 86400000",
        "move_timeout_ms debe estar entre 100 y 86400000",
    ],
    // Reading events.
    [
        "wait_ms is at most {}",
        "wait_ms és com a màxim {0}",
        "wait_ms es como máximo {0}",
    ],
    [
        "limit is between 1 and {}",
        "limit és entre 1 i {0}",
        "limit está entre 1 y {0}",
    ],
    [
        "there is no event {} to resume after: the match's last event is {}",
        "no hi ha cap esdeveniment {0} des d'on continuar: l'últim esdeveniment de la partida és el {1}",
        "no hay ningún evento {0} desde el que continuar: el último evento de la partida es el {1}",
    ],
    [
        "Last-Event-ID must be an event number",
        "Last-Event-ID ha de ser un número d'esdeveniment",
        "Last-Event-ID debe ser un número de evento",
    ],
    // Bodies, queries and the HTTP edge.
    [
        "invalid JSON body: {}",
        "cos JSON no vàlid: {0}",
        "cuerpo JSON no válido: {0}",
    ],
    [
        "invalid query: {}",
        "consulta no vàlida: {0}",
        "consulta no válida: {0}",
    ],
    [
        "invalid path: {}",
        "camí no vàlid: {0}",
        "ruta no válida: {0}",
    ],
    [
        "send the body as JSON, with `Content-Type: application/json`",
        "envia el cos en JSON, amb `Content-Type: application/json`",
        "envía el cuerpo en JSON, con `Content-Type: application/json`",
    ],
    [
        "the request body did not arrive within {} ms",
        "el cos de la petició no ha arribat en {0} ms",
        "el cuerpo de la solicitud no ha llegado en {0} ms",
    ],
    [
        "the request body is too large",
        "el cos de la petició és massa gran",
        "el cuerpo de la solicitud es demasiado grande",
    ],
    [
        "no resource at {}",
        "no hi ha cap recurs a {0}",
        "no hay ningún recurso en {0}",
    ],
    [
        "{} is not allowed on {}; allowed: {}",
        "{0} no està permès a {1}; s'hi permet: {2}",
        "{0} no está permitido en {1}; se permite: {2}",
    ],
    // Limits and the store.
    [
        "limit: {} requests per second per client address",
        "límit: {0} peticions per segon per adreça de client",
        "límite: {0} solicitudes por segundo por dirección de cliente",
    ],
    [
        "limit: {} requests per second per seat token",
        "límit: {0} peticions per segon per token de seient",
        "límite: {0} solicitudes por segundo por token de asiento",
    ],
    [
        "limit: {} matches created per minute per client address",
        "límit: {0} partides creades per minut per adreça de client",
        "límite: {0} partidas creadas por minuto por dirección de cliente",
    ],
    [
        "limit: {} hints per second per client address",
        "límit: {0} suggeriments per segon per adreça de client",
        "límite: {0} sugerencias por segundo por dirección de cliente",
    ],
    [
        "limit: {} open event streams per client address",
        "límit: {0} fluxos d'esdeveniments oberts per adreça de client",
        "límite: {0} flujos de eventos abiertos por dirección de cliente",
    ],
    [
        "limit: {} open connections per client address",
        "límit: {0} connexions obertes per adreça de client",
        "límite: {0} conexiones abiertas por dirección de cliente",
    ],
    [
        "the match store is unavailable; retry later",
        "el magatzem de partides no està disponible; torna-ho a provar més tard",
        "el almacén de partidas no está disponible; vuelve a intentarlo más tarde",
    ],
    [
        "the match store is full; retry later",
        "el magatzem de partides és ple; torna-ho a provar més tard",
        "el almacén de partidas está lleno; vuelve a intentarlo más tarde",
    ],
    [
        "the server failed; the failure was logged",
        "el servidor ha fallat; la fallada ha quedat registrada",
        "el servidor ha fallado; el fallo ha quedado registrado",
    ],
];

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
    use crate::rules::{Card, Phase};

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
        for (code, t) in TITLES {
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
