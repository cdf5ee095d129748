// The table's words in Catalan, Spanish and English. `t(key, ...args)`
// returns the current language's text (a function entry takes arguments).

const en = {
  title: 'Botifarra', skip: 'Skip to content', language: 'Language', loading: 'Loading…',
  apiDocs: 'API documentation',
  lobbyIntro: 'Play the Catalan card game against the house bots, with friends, or watch a match.',
  playBots: 'Play against the house bots', playFriends: 'A table with friends', joinWatch: 'Join or watch',
  variant: 'Game', pairs: 'Pairs (2 against 2)', abarrotada: 'Abarrotada (4, each for oneself)',
  abarrotada3: 'Abarrotada for 3',
  target: 'Points to win', maxHands: 'At most this many hands (empty: no limit)', bot: 'House bot',
  botNames: { heuristic: 'Heuristic (good)', random: 'Random (easy)', montecarlo: 'Monte Carlo (strong)' },
  clock: 'Move clock', noClock: 'None', seconds: (n) => `${n} seconds`,
  mustTrump: 'Must trump when void in the suit led', yourName: 'Your name',
  start: 'Start the match', create: 'Create the table',
  seatLinks: 'Send each player the link of their seat (it holds the seat\'s secret token, keep it private):',
  seatLink: (n) => `Seat ${n + 1}`, sitHere: 'Sit here', copy: 'Copy link', copied: 'Copied',
  spectatorLink: 'Link to watch', linkOrId: 'A seat link, or a match id to watch', go: 'Open',
  badLink: 'That is not a seat link or a match id.',
  dealer: 'dealer', you: 'you', where: { right: 'on your right', top: 'across', left: 'on your left' }, seat: (n) => `Seat ${n + 1}`, botSeat: (name) => `bot ${name}`,
  side: (n) => `Side ${n + 1}`, us: 'Us', them: 'Them',
  spectator: 'Watching as a spectator',
  yourTurn: 'Your turn', turnOf: (who) => `${who} to play`, waiting: 'Waiting…',
  clockLeft: (s) => `${s} s left`,
  phase: { awaiting_deal: 'Waiting for the deal', choosing_trump: 'Choosing trump', doubling: 'Doubling', playing: 'Playing', match_over: 'Match over' },
  trump: 'Trump', noTrumpYet: 'not chosen yet', multiplier: 'Multiplier', calls: 'Calls', none: 'none',
  score: 'Match score', points: 'Points this hand', tricks: 'Tricks', hand: (n) => `Hand ${n}`,
  yourHand: 'Your hand', cardsHeld: (n) => `${n} cards`, trick: 'Trick on the table', lastTrick: 'Last trick',
  emptyTrick: 'No card played yet', wonBy: (who) => `won by ${who}`, played: (who, card) => `${who} played ${card}`,
  results: 'Hand results', declarer: 'Declarer', recorded: 'Recorded', forfeit: 'forfeit',
  analysis: 'Replay: every card beside the best', analysisIntro: 'Each card valued with every hand known; marked cards gave away points.',
  analysing: (d, n) => `Analysing the cards… ${d} of ${n}`, costly: (n, best) => `cost ${n} points; best: ${best}`,
  bestCard: 'a best card', unsolved: 'not solved within the budget', costBySeat: 'Points given away',
  deal: 'Deal the cards', chooseTrump: 'Choose trump', doubleOrPass: 'Double or pass',
  choice: { O: 'Oros', C: 'Copes', E: 'Espases', B: 'Bastos', botifarra: 'Botifarra (no trump)', delegate: 'Pass to partner (delegate)', estevet: 'Estevet' },
  call: { contro: 'Contro (double)', recontro: 'Recontro (redouble)', sant_vicenc: 'Sant Vicenç', pass: 'Pass' },
  notYourTurn: 'Not your turn', notNow: 'Cards are not played in this phase',
  mustFollow: (suit) => `You must follow suit: ${suit}`,
  mustBeat: 'Not allowed now: you must beat the trick or trump when you can',
  refused: (d) => `Refused: ${d}`, connLost: 'Connection lost, reconnecting…', matchNotFound: 'No such match.',
  badToken: 'This seat link is not valid for this match.',
  matchOver: 'Match over', weWon: 'Your side won', theyWon: 'The other side won', winner: (who) => `${who} won`, draw: 'A draw', seed: 'Seed (checks the deals)',
  endedBy: {
    resigned: (who) => `${who} resigned the match`, aborted: (who) => `${who} aborted the match: nobody wins`,
    abandoned: (who) => `${who} missed too many moves: the match is lost`,
    claimed: (who, gone) => `${who} claimed the match: ${gone} was gone`,
  },
  backToLobby: 'New match', matchId: 'Match',
  suits: { O: 'Oros', C: 'Copes', E: 'Espases', B: 'Bastos' },
  cardName: (rank, suit) => `${({ 1: 'Ace', 9: 'Manilla 9', 10: 'Sota', 11: 'Cavall', 12: 'Rei' })[rank] || rank} of ${suit}`,
};

const ca = {
  ...en,
  skip: 'Vés al contingut', language: 'Idioma', loading: 'Carregant…', apiDocs: 'Documentació de l\'API',
  lobbyIntro: 'Juga a la botifarra contra els bots de la casa, amb amics, o mira una partida.',
  playBots: 'Juga contra els bots de la casa', playFriends: 'Una taula amb amics', joinWatch: 'Entra o mira',
  variant: 'Joc', pairs: 'Parelles (2 contra 2)', abarrotada: 'Abarrotada (4, cadascú per si)', abarrotada3: 'Abarrotada de 3',
  target: 'Punts per guanyar', maxHands: 'Com a màxim aquestes mans (buit: sense límit)', bot: 'Bot de la casa',
  botNames: { heuristic: 'Heurístic (bo)', random: 'A l\'atzar (fàcil)', montecarlo: 'Monte Carlo (fort)' },
  clock: 'Rellotge per jugada', noClock: 'Cap', seconds: (n) => `${n} segons`,
  mustTrump: 'Cal fallar si no tens del pal sortit', yourName: 'El teu nom',
  start: 'Comença la partida', create: 'Crea la taula',
  seatLinks: 'Envia a cada jugador l\'enllaç del seu seient (porta el testimoni secret del seient, no el comparteixis):',
  seatLink: (n) => `Seient ${n + 1}`, sitHere: 'Seu aquí', copy: 'Copia l\'enllaç', copied: 'Copiat',
  spectatorLink: 'Enllaç per mirar', linkOrId: 'Un enllaç de seient, o l\'id d\'una partida per mirar-la', go: 'Obre',
  badLink: 'Això no és un enllaç de seient ni un id de partida.',
  dealer: 'reparteix', you: 'tu', where: { right: 'a la dreta', top: 'al davant', left: 'a l\'esquerra' }, seat: (n) => `Seient ${n + 1}`, botSeat: (name) => `bot ${name}`,
  side: (n) => `Bàndol ${n + 1}`, us: 'Nosaltres', them: 'Ells',
  spectator: 'Mirant com a espectador',
  yourTurn: 'Et toca', turnOf: (who) => `Li toca a ${who}`, waiting: 'Esperant…',
  clockLeft: (s) => `Queden ${s} s`,
  phase: { awaiting_deal: 'Esperant el repartiment', choosing_trump: 'Triomfant', doubling: 'Contrant', playing: 'Jugant', match_over: 'Partida acabada' },
  trump: 'Triomf', noTrumpYet: 'encara no triat', multiplier: 'Multiplicador', calls: 'Contros', none: 'cap',
  score: 'Marcador', points: 'Punts d\'aquesta mà', tricks: 'Bases', hand: (n) => `Mà ${n}`,
  yourHand: 'Les teves cartes', cardsHeld: (n) => `${n} cartes`, trick: 'Basa a la taula', lastTrick: 'Última basa',
  emptyTrick: 'Encara no s\'ha jugat cap carta', wonBy: (who) => `la guanya ${who}`, played: (who, card) => `${who} juga ${card}`,
  results: 'Resultats de les mans', declarer: 'Triomfador', recorded: 'Anotat', forfeit: 'abandó',
  analysis: 'Repetició: cada carta al costat de la millor', analysisIntro: 'Cada carta valorada coneixent totes les mans; les marcades van regalar punts.',
  analysing: (d, n) => `Analitzant les cartes… ${d} de ${n}`, costly: (n, best) => `ha costat ${n} punts; la millor: ${best}`,
  bestCard: 'una de les millors', unsolved: 'no resolta dins del pressupost', costBySeat: 'Punts regalats',
  deal: 'Reparteix', chooseTrump: 'Tria el triomf', doubleOrPass: 'Contra o passa',
  choice: { O: 'Oros', C: 'Copes', E: 'Espases', B: 'Bastos', botifarra: 'Botifarra', delegate: 'Delega al company', estevet: 'Estevet' },
  call: { contro: 'Contro', recontro: 'Recontro', sant_vicenc: 'Sant Vicenç', pass: 'Passo' },
  notYourTurn: 'No et toca', notNow: 'Ara no es juguen cartes',
  mustFollow: (suit) => `Has d'assistir: ${suit}`,
  mustBeat: 'Ara no: has de matar la basa o fallar si pots',
  refused: (d) => `Refusat: ${d}`, connLost: 'Connexió perduda, tornant a connectar…', matchNotFound: 'Aquesta partida no existeix.',
  badToken: 'Aquest enllaç de seient no és vàlid per a aquesta partida.',
  matchOver: 'Partida acabada', weWon: 'Guanya el vostre bàndol', theyWon: 'Guanya l\'altre bàndol', winner: (who) => `Guanya ${who}`, draw: 'Empat', seed: 'Llavor (comprova els repartiments)',
  endedBy: {
    resigned: (who) => `${who} ha abandonat la partida`, aborted: (who) => `${who} ha anul·lat la partida: no guanya ningú`,
    abandoned: (who) => `${who} ha deixat passar massa jugades: perd la partida`,
    claimed: (who, gone) => `${who} ha reclamat la partida: ${gone} no hi era`,
  },
  backToLobby: 'Partida nova', matchId: 'Partida',
  suits: { O: 'oros', C: 'copes', E: 'espases', B: 'bastos' },
  cardName: (rank, suit) => {
    const r = ({ 1: 'as', 9: 'manilla', 10: 'sota', 11: 'cavall', 12: 'rei' })[rank] || String(rank);
    return `${r} ${/^[aeiou]/.test(suit) ? 'd\'' : 'de '}${suit}`;
  },
};

const es = {
  ...en,
  skip: 'Ir al contenido', language: 'Idioma', loading: 'Cargando…', apiDocs: 'Documentación de la API',
  lobbyIntro: 'Juega a la botifarra contra los bots de la casa, con amigos, o mira una partida.',
  playBots: 'Juega contra los bots de la casa', playFriends: 'Una mesa con amigos', joinWatch: 'Entra o mira',
  variant: 'Juego', pairs: 'Parejas (2 contra 2)', abarrotada: 'Abarrotada (4, cada uno por su cuenta)', abarrotada3: 'Abarrotada de 3',
  target: 'Puntos para ganar', maxHands: 'Como máximo estas manos (vacío: sin límite)', bot: 'Bot de la casa',
  botNames: { heuristic: 'Heurístico (bueno)', random: 'Al azar (fácil)', montecarlo: 'Monte Carlo (fuerte)' },
  clock: 'Reloj por jugada', noClock: 'Ninguno', seconds: (n) => `${n} segundos`,
  mustTrump: 'Hay que fallar si no tienes del palo salido', yourName: 'Tu nombre',
  start: 'Empieza la partida', create: 'Crea la mesa',
  seatLinks: 'Envía a cada jugador el enlace de su asiento (lleva el token secreto del asiento, no lo compartas):',
  seatLink: (n) => `Asiento ${n + 1}`, sitHere: 'Siéntate aquí', copy: 'Copia el enlace', copied: 'Copiado',
  spectatorLink: 'Enlace para mirar', linkOrId: 'Un enlace de asiento, o el id de una partida para mirarla', go: 'Abre',
  badLink: 'Eso no es un enlace de asiento ni un id de partida.',
  dealer: 'reparte', you: 'tú', where: { right: 'a la derecha', top: 'enfrente', left: 'a la izquierda' }, seat: (n) => `Asiento ${n + 1}`, botSeat: (name) => `bot ${name}`,
  side: (n) => `Bando ${n + 1}`, us: 'Nosotros', them: 'Ellos',
  spectator: 'Mirando como espectador',
  yourTurn: 'Te toca', turnOf: (who) => `Le toca a ${who}`, waiting: 'Esperando…',
  clockLeft: (s) => `Quedan ${s} s`,
  phase: { awaiting_deal: 'Esperando el reparto', choosing_trump: 'Eligiendo triunfo', doubling: 'Doblando', playing: 'Jugando', match_over: 'Partida terminada' },
  trump: 'Triunfo', noTrumpYet: 'aún sin elegir', multiplier: 'Multiplicador', calls: 'Contros', none: 'ninguno',
  score: 'Marcador', points: 'Puntos de esta mano', tricks: 'Bazas', hand: (n) => `Mano ${n}`,
  yourHand: 'Tus cartas', cardsHeld: (n) => `${n} cartas`, trick: 'Baza en la mesa', lastTrick: 'Última baza',
  emptyTrick: 'Aún no se ha jugado ninguna carta', wonBy: (who) => `la gana ${who}`, played: (who, card) => `${who} juega ${card}`,
  results: 'Resultados de las manos', declarer: 'Triunfador', recorded: 'Anotado', forfeit: 'abandono',
  analysis: 'Repetición: cada carta junto a la mejor', analysisIntro: 'Cada carta valorada conociendo todas las manos; las marcadas regalaron puntos.',
  analysing: (d, n) => `Analizando las cartas… ${d} de ${n}`, costly: (n, best) => `ha costado ${n} puntos; la mejor: ${best}`,
  bestCard: 'una de las mejores', unsolved: 'no resuelta dentro del presupuesto', costBySeat: 'Puntos regalados',
  deal: 'Reparte', chooseTrump: 'Elige el triunfo', doubleOrPass: 'Dobla o pasa',
  choice: { O: 'Oros', C: 'Copas', E: 'Espadas', B: 'Bastos', botifarra: 'Botifarra', delegate: 'Delega en el compañero', estevet: 'Estevet' },
  call: { contro: 'Contro', recontro: 'Recontro', sant_vicenc: 'San Vicente', pass: 'Paso' },
  notYourTurn: 'No te toca', notNow: 'Ahora no se juegan cartas',
  mustFollow: (suit) => `Debes asistir: ${suit}`,
  mustBeat: 'Ahora no: debes matar la baza o fallar si puedes',
  refused: (d) => `Rechazado: ${d}`, connLost: 'Conexión perdida, reconectando…', matchNotFound: 'Esa partida no existe.',
  badToken: 'Este enlace de asiento no es válido para esta partida.',
  matchOver: 'Partida terminada', weWon: 'Gana vuestro bando', theyWon: 'Gana el otro bando', winner: (who) => `Gana ${who}`, draw: 'Empate', seed: 'Semilla (comprueba los repartos)',
  endedBy: {
    resigned: (who) => `${who} ha abandonado la partida`, aborted: (who) => `${who} ha anulado la partida: no gana nadie`,
    abandoned: (who) => `${who} ha dejado pasar demasiadas jugadas: pierde la partida`,
    claimed: (who, gone) => `${who} ha reclamado la partida: ${gone} no estaba`,
  },
  backToLobby: 'Partida nueva', matchId: 'Partida',
  suits: { O: 'oros', C: 'copas', E: 'espadas', B: 'bastos' },
  cardName: (rank, suit) => `${({ 1: 'as', 9: 'manilla', 10: 'sota', 11: 'caballo', 12: 'rey' })[rank] || rank} de ${suit}`,
};

const dictionaries = { ca, es, en };
let current = 'en';

/** The language of the page: a saved choice, else the browser's, else English. */
export function initialLanguage() {
  let saved = null;
  try { saved = localStorage.getItem('botifarra.lang'); } catch { saved = null; }
  if (saved && dictionaries[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (dictionaries[base]) return base;
  }
  return 'en';
}

/** Switches the language (and remembers it). */
export function setLanguage(lang) {
  current = dictionaries[lang] ? lang : 'en';
  document.documentElement.lang = current;
  try { localStorage.setItem('botifarra.lang', current); } catch { /* private mode */ }
}

/** The current language's text for `key`. */
export function t(key, ...args) {
  const v = dictionaries[current][key];
  return typeof v === 'function' ? v(...args) : v;
}
