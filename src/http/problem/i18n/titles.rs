//! The title of each problem code, in each language.

use super::Lang;

/// `(code, [English, Catalan, Spanish])`: the title of each problem code.
pub(super) const TITLES: &[(&str, [&str; 3])] = &[
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
        "player_not_found",
        [
            "Player not found",
            "No s'ha trobat el jugador",
            "Jugador no encontrado",
        ],
    ),
    (
        "table_not_found",
        [
            "Table not found",
            "No s'ha trobat la taula",
            "Mesa no encontrada",
        ],
    ),
    (
        "invite_not_found",
        [
            "Invite not found",
            "No s'ha trobat la invitació",
            "Invitación no encontrada",
        ],
    ),
    (
        "table_expired",
        [
            "Table expired",
            "La taula ha caducat",
            "La mesa ha caducado",
        ],
    ),
    (
        "seat_taken",
        ["Seat taken", "Seient ocupat", "Asiento ocupado"],
    ),
    (
        "table_started",
        [
            "Table started",
            "La partida ja ha començat",
            "La partida ya ha empezado",
        ],
    ),
    (
        "challenge_not_found",
        [
            "Challenge not found",
            "No s'ha trobat el repte",
            "Desafío no encontrado",
        ],
    ),
    (
        "tournament_not_found",
        [
            "Tournament not found",
            "No s'ha trobat el torneig",
            "Torneo no encontrado",
        ],
    ),
    (
        "tournament_closed",
        ["Tournament closed", "Torneig tancat", "Torneo cerrado"],
    ),
    (
        "challenge_closed",
        ["Challenge closed", "Repte tancat", "Desafío cerrado"],
    ),
    (
        "challenge_expired",
        [
            "Challenge expired",
            "El repte ha caducat",
            "El desafío ha caducado",
        ],
    ),
    (
        "too_many_challenges",
        [
            "Too many challenges",
            "Massa reptes pendents",
            "Demasiados desafíos pendientes",
        ],
    ),
    (
        "inbox_full",
        [
            "Inbox full",
            "Massa invitacions pendents",
            "Demasiadas invitaciones pendientes",
        ],
    ),
    (
        "consent_required",
        [
            "Consent required",
            "Cal el consentiment del jugador",
            "Se requiere el consentimiento del jugador",
        ],
    ),
    (
        "ticket_not_found",
        [
            "Ticket not found",
            "No s'ha trobat el tiquet",
            "Tique no encontrado",
        ],
    ),
    (
        "already_queued",
        ["Already queued", "Ja és a la cua", "Ya está en la cola"],
    ),
    (
        "party_not_found",
        [
            "Party not found",
            "No s'ha trobat el grup",
            "Grupo no encontrado",
        ],
    ),
    (
        "party_closed",
        [
            "Party closed",
            "El grup ja és tancat",
            "El grupo ya está cerrado",
        ],
    ),
    (
        "queue_full",
        ["Queue full", "La cua és plena", "La cola está llena"],
    ),
    (
        "ticket_matched",
        [
            "Ticket matched",
            "El tiquet ja té partida",
            "El tique ya tiene partida",
        ],
    ),
    (
        "store_full",
        ["Store full", "Magatzem ple", "Almacén lleno"],
    ),
    (
        "capacity_reached",
        [
            "Capacity reached",
            "Capacitat exhaurida",
            "Capacidad agotada",
        ],
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
        "abort_too_late",
        [
            "Abort too late",
            "Massa tard per anul·lar la partida",
            "Demasiado tarde para anular la partida",
        ],
    ),
    (
        "match_not_over",
        [
            "Match not over",
            "La partida no s'ha acabat",
            "La partida no ha terminado",
        ],
    ),
    (
        "claim_too_early",
        [
            "Claim too early",
            "Massa d'hora per reclamar la victòria",
            "Demasiado pronto para reclamar la victoria",
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
