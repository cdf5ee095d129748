// The public API as a browser uses it: JSON over fetch with the seat token
// in `Authorization`, and the event stream through `EventSource`, which
// cannot send headers, so the token goes in `access_token` (RFC 6750 §2.3).

/** An API refusal: the problem document's `code`, `detail` and status. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || 'http_error';
    this.detail = problem.detail || '';
  }
}

async function call(method, path, { token, body, headers = {} } = {}) {
  // Refusals come back in the page's language (English, Catalan, Spanish).
  const lang = (globalThis.document && document.documentElement.lang) || 'en';
  const h = { Accept: 'application/json', 'Accept-Language': lang, ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, { code: 'network', detail: String(e.message || e) });
  }
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!res.ok) throw new ApiError(res.status, json || {});
  return json;
}

function key() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

/** `POST /v1/matches`: the match id, the seat tokens and the spectator view. */
export const createMatch = (body) => call('POST', '/v1/matches', { body });

/** `GET /v1/matches/{id}`: the view of the token's seat (spectator without). */
export const getView = (id, token) => call('GET', `/v1/matches/${encodeURIComponent(id)}`, { token });

/**
 * `GET /v1/matches/{id}/analysis` of a finished match: `status` is
 * `computing` (ask again later) or `done`.
 */
export const getAnalysis = (id, token) => call('GET', `/v1/matches/${encodeURIComponent(id)}/analysis`, { token });

/** The number of the match's last event (to follow the stream from there). */
export async function lastSeq(id, token) {
  const page = await call('GET', `/v1/matches/${encodeURIComponent(id)}/events?limit=1`, { token });
  return page.last_seq;
}

/**
 * Posts one action exactly as `legal_actions` listed it, at the version the
 * player saw; a retry after a lost answer reuses its idempotency key.
 */
export function act(id, token, action, version) {
  return call('POST', `/v1/matches/${encodeURIComponent(id)}/actions`, {
    token,
    body: action,
    headers: { 'If-Match': `"${version}"`, 'Idempotency-Key': key() },
  });
}

/**
 * Follows the match's events after `after`. `onEvent` gets each event,
 * `onDrop` is told when the connection drops (the browser reconnects with
 * `Last-Event-ID` by itself), `onEnd` when the server says there is no more
 * (`204` after the end of a match, or a refusal). Returns a function that
 * closes the stream.
 */
export function follow(id, token, after, { onEvent, onDrop, onEnd }) {
  const q = new URLSearchParams({ after: String(after) });
  if (token) q.set('access_token', token);
  const es = new EventSource(`/v1/matches/${encodeURIComponent(id)}/stream?${q}`);
  const handler = (e) => {
    let data = null;
    try { data = JSON.parse(e.data); } catch { data = null; }
    onEvent(e.type, data);
  };
  for (const type of ['match_created', 'hand_dealt', 'delegated', 'trump_chosen', 'double_called',
    'card_played', 'trick_won', 'hand_forfeited', 'hand_scored', 'match_over', 'bot_acted', 'message']) {
    es.addEventListener(type, handler);
  }
  es.addEventListener('error', () => {
    if (es.readyState === EventSource.CLOSED) onEnd();
    else onDrop();
  });
  return () => es.close();
}

// ---- players and tournaments (the player's key as the bearer) ----

const enc = encodeURIComponent;

/** `POST /v1/players`: the profile and the key (shown only here). */
export const register = (name, kind = 'human') => call('POST', '/v1/players', { body: { name, kind } });

/** `GET /v1/players/me`: the key's own profile (401 for a wrong key). */
export const me = (key) => call('GET', '/v1/players/me', { token: key });

/**
 * `GET /v1/players/me/events`: the player's events after `after`, waiting
 * up to `waitMs` for one (a long poll).
 */
export function playerEvents(key, after, waitMs = 0) {
  const q = new URLSearchParams({ after: String(after) });
  if (waitMs) q.set('wait_ms', String(waitMs));
  return call('GET', `/v1/players/me/events?${q}`, { token: key });
}

/** `GET /v1/tournaments`: a page of the public tournaments. */
export function listTournaments(after) {
  const q = new URLSearchParams({ limit: '50' });
  if (after) q.set('after', after);
  return call('GET', `/v1/tournaments?${q}`);
}

/** `POST /v1/tournaments` with the maker's key. */
export const createTournament = (key, body) => call('POST', '/v1/tournaments', { token: key, body });

/** `GET /v1/tournaments/{id}`. */
export const getTournament = (id) => call('GET', `/v1/tournaments/${enc(id)}`);

/** `GET /v1/tournaments/{id}/rounds/{n}`: tables, results, travellers. */
export const getRound = (id, n) => call('GET', `/v1/tournaments/${enc(id)}/rounds/${enc(n)}`);

/** `POST /v1/tournaments/{id}/entries` (a private one's `code`, if any). */
export const enterTournament = (key, id, body = {}) => call('POST', `/v1/tournaments/${enc(id)}/entries`, { token: key, body });

/** `DELETE /v1/tournaments/{id}/entries/me`. */
export const withdraw = (key, id) => call('DELETE', `/v1/tournaments/${enc(id)}/entries/me`, { token: key });

/** `POST /v1/tournaments/{id}/start` (the maker only). */
export const startTournament = (key, id) => call('POST', `/v1/tournaments/${enc(id)}/start`, { token: key });

/** `GET /v1/leaderboard`: a pool's players by rating, a page at a time. */
export function leaderboard(variant, after) {
  const q = new URLSearchParams({ variant, limit: '50' });
  if (after) q.set('after', after);
  return call('GET', `/v1/leaderboard?${q}`);
}

/** `POST /v1/queue`: a ticket (matched at once when house bots fill at 0 s). */
export const joinQueue = (key, body) => call('POST', '/v1/queue', { token: key, body });

/** `GET /v1/queue/{ticket}`, waiting up to `waitMs` for it to stop waiting. */
export const getTicket = (key, id, waitMs = 0) => call('GET', `/v1/queue/${enc(id)}${waitMs ? `?wait_ms=${waitMs}` : ''}`, { token: key });

/** `DELETE /v1/queue/{ticket}`: leaves the queue. */
export const leaveQueue = (key, id) => call('DELETE', `/v1/queue/${enc(id)}`, { token: key });

/** `POST /v1/challenges`: invites players by id to a match. */
export const challenge = (key, body) => call('POST', '/v1/challenges', { token: key, body });

/** `GET /v1/challenges`: the player's pending challenges, `incoming` and `outgoing`. */
export const challenges = (key) => call('GET', '/v1/challenges', { token: key });

/** `GET /v1/challenges/{id}`. */
export const getChallenge = (key, id) => call('GET', `/v1/challenges/${enc(id)}`, { token: key });

/** `POST /v1/challenges/{id}/accept` or `…/decline`. */
export const answerChallenge = (key, id, answer) => call('POST', `/v1/challenges/${enc(id)}/${answer}`, { token: key });

/** `DELETE /v1/challenges/{id}`: the challenger withdraws it. */
export const cancelChallenge = (key, id) => call('DELETE', `/v1/challenges/${enc(id)}`, { token: key });
