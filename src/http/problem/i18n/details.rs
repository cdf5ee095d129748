//! The sentences of problem details and their translations.

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
        "a seat names a player only with that player's key (send it as `Authorization: Bearer <key>` to sit yourself); to play another player, challenge it (POST /v1/challenges) or reserve it a seat at a table (POST /v1/tables)",
        "un seient només pot portar el nom d'un jugador amb la clau d'aquest jugador (envia-la com a `Authorization: Bearer <clau>` per seure-hi tu); per jugar amb un altre jugador, repta'l (POST /v1/challenges) o reserva-li un seient en una taula (POST /v1/tables)",
        "un asiento solo puede nombrar a un jugador con la clave de ese jugador (envíala como `Authorization: Bearer <clave>` para sentarte tú); para jugar con otro jugador, desafíalo (POST /v1/challenges) o resérvale un asiento en una mesa (POST /v1/tables)",
    ],
    [
        "a table seats a player only with that player's key: send your key as `Authorization: Bearer <key>` to sit yourself, or to reserve a seat for another player, who takes it with its own key",
        "una taula només asseu un jugador amb la clau d'aquest jugador: envia la teva clau com a `Authorization: Bearer <clau>` per seure-hi tu, o per reservar un seient a un altre jugador, que l'ocuparà amb la seva clau",
        "una mesa solo sienta a un jugador con la clave de ese jugador: envía tu clave como `Authorization: Bearer <clave>` para sentarte tú, o para reservar un asiento a otro jugador, que lo ocupará con su propia clave",
    ],
    [
        "a player may have {} pending invitations (challenges and reserved seats) at once; cancel one, or wait for answers",
        "un jugador pot tenir {0} invitacions pendents alhora (reptes i seients reservats); cancel·la'n una o espera les respostes",
        "un jugador puede tener {0} invitaciones pendientes a la vez (desafíos y asientos reservados); cancela una o espera las respuestas",
    ],
    [
        "player {} has {} pending invitations waiting for its answer; try again later",
        "el jugador {0} té {1} invitacions pendents de resposta; torna-ho a provar més tard",
        "el jugador {0} tiene {1} invitaciones pendientes de respuesta; vuelve a intentarlo más tarde",
    ],
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
    // Names (of players, seats and joiners).
    [
        "names are at most {} characters",
        "els noms tenen com a màxim {0} caràcters",
        "los nombres tienen como máximo {0} caracteres",
    ],
    [
        "names may not contain control, invisible or text-direction characters, such as U+{}",
        "els noms no poden contenir caràcters de control, invisibles o de direcció del text, com ara U+{0}",
        "los nombres no pueden contener caracteres de control, invisibles o de dirección del texto, como U+{0}",
    ],
    [
        "a name needs a visible character, not only spaces or invisible fillers",
        "un nom necessita algun caràcter visible, no només espais o farciments invisibles",
        "un nombre necesita algún carácter visible, no solo espacios o rellenos invisibles",
    ],
    [
        "names may stack at most {} combining marks on one character",
        "els noms poden apilar com a màxim {0} marques combinants sobre un caràcter",
        "los nombres pueden apilar como máximo {0} marcas combinantes sobre un carácter",
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
        "limit: {} requests per second per API key or seat token",
        "límit: {0} peticions per segon per clau d'API o token de seient",
        "límite: {0} solicitudes por segundo por clave de API o token de asiento",
    ],
    [
        "limit: {} requests per second per match per API key or seat token",
        "límit: {0} peticions per segon per partida per clau d'API o token de seient",
        "límite: {0} solicitudes por segundo por partida por clave de API o token de asiento",
    ],
    [
        "limit: {} reads of the player's matches per second per key",
        "límit: {0} lectures de les partides del jugador per segon per clau",
        "límite: {0} lecturas de las partidas del jugador por segundo por clave",
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
    // Tournaments.
    [
        "no tournament with this id",
        "no hi ha cap torneig amb aquest identificador",
        "no hay ningún torneo con este identificador",
    ],
    [
        "the tournament takes no more entries",
        "el torneig ja no admet inscripcions",
        "el torneo ya no admite inscripciones",
    ],
    [
        "this player has already entered",
        "aquest jugador ja s'hi ha inscrit",
        "este jugador ya se ha inscrito",
    ],
    [
        "the tournament is full",
        "el torneig és ple",
        "el torneo está lleno",
    ],
    [
        "this player has not entered",
        "aquest jugador no s'hi ha inscrit",
        "este jugador no se ha inscrito",
    ],
    [
        "the tournament is over",
        "el torneig s'ha acabat",
        "el torneo ha terminado",
    ],
    [
        "the tournament has started",
        "el torneig ja ha començat",
        "el torneo ya ha empezado",
    ],
    [
        "only the tournament's maker can start it",
        "només qui ha creat el torneig el pot començar",
        "solo quien ha creado el torneo puede empezarlo",
    ],
    [
        "a private tournament is entered with its code",
        "a un torneig privat s'hi entra amb el seu codi",
        "a un torneo privado se entra con su código",
    ],
    [
        "partners are drawn in this tournament: leave out `partner`",
        "en aquest torneig les parelles se sortegen: no enviïs `partner`",
        "en este torneo las parejas se sortean: no envíes `partner`",
    ],
    [
        "this tournament has fixed partnerships: name your `partner`",
        "aquest torneig té parelles fixes: indica el teu `partner`",
        "este torneo tiene parejas fijas: indica tu `partner`",
    ],
    [
        "the partner must be another registered player",
        "la parella ha de ser un altre jugador registrat",
        "la pareja debe ser otro jugador registrado",
    ],
    [
        "partnerships exist only in the pairs game",
        "les parelles només existeixen en el joc per parelles",
        "las parejas solo existen en el juego por parejas",
    ],
    [
        "a duplicate tournament is unrated: its boards are hands, not matches",
        "un torneig duplicat no puntua per al rànquing: les seves mans no són partides",
        "un torneo duplicado no puntúa para el ranking: sus manos no son partidas",
    ],
    [
        "a rated tournament is played with the variant's standard rules: leave out `rules`",
        "un torneig puntuable es juga amb les regles estàndard de la variant: no enviïs `rules`",
        "un torneo puntuable se juega con las reglas estándar de la variante: no envíes `rules`",
    ],
    [
        "`rules.variant` must be the tournament's `variant`",
        "`rules.variant` ha de ser la `variant` del torneig",
        "`rules.variant` debe ser la `variant` del torneo",
    ],
];
