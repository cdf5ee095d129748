#!/usr/bin/env node
// A complete Botifarra client bot for Node 18+ with no dependencies (the
// built-in fetch). It creates a match against three house bots, then plays
// its seat until the match is over: it reads its view, and when it has legal
// actions it picks one with a simple strategy and posts it; otherwise it
// long-polls the event feed.
//
// With --lobby it plays as a registered bot player instead: it registers,
// joins the oldest public table with an open seat (or opens a table against
// three house bots and takes its open seat), then follows its player event
// stream and plays whenever the stream says it is its turn.
//
// With --queue it registers (or uses the key in env BOTIFARRA_KEY), queues
// for a rated match (env QUEUE_VARIANT, default pairs; env QUEUE_FILL_S:
// fill the empty seats with house bots after that many seconds), waits on
// its ticket until it is matched, then plays the match as --lobby does.
//
// Usage: node bot.mjs [--lobby | --queue] [BASE_URL]   (or env BOTIFARRA_URL;
// default http://127.0.0.1:8080)

// Order inside a suit, strongest first (docs/rules.md section 1), and card points.
const ORDER = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2];
const POINTS = { 9: 5, 1: 4, 12: 3, 11: 2, 10: 1 };

async function request(base, method, path, token, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const resp = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await resp.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text };
  }
  if (resp.status === 429) {
    const wait = Number(resp.headers.get("Retry-After") ?? "1");
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
  return [resp.status, parsed];
}

const parse = (card) => [Number(card.slice(0, -1)), card.slice(-1)];
const strength = (card) => ORDER.length - ORDER.indexOf(parse(card)[0]);

// Whether `card` beats the winning card `best` (docs/rules.md section 4).
function beats(card, best, trump) {
  const [, suit] = parse(card);
  const [, bestSuit] = parse(best);
  if (suit === bestSuit) return strength(card) > strength(best);
  return suit === trump;
}

function winningCard(trick, trump) {
  let best = null;
  for (const played of trick?.cards ?? []) {
    if (best === null || beats(played.card, best, trump)) best = played.card;
  }
  return best;
}

// The example strategy: trump = the longest suit; pass on doubles; play the
// highest legal card when it can win the trick, else the lowest.
function choose(view) {
  const legal = view.legal_actions;
  const hand = view.hand ?? [];
  const kinds = new Set(legal.map((a) => a.type));
  if (kinds.has("trump")) {
    const count = (s) => hand.filter((c) => c.endsWith(s)).length;
    const suits = legal.filter((a) => "OCEB".includes(a.choice) && a.choice.length === 1);
    if (suits.length === 0) return legal[0];
    return suits.reduce((best, a) => (count(a.choice) > count(best.choice) ? a : best));
  }
  if (kinds.has("double")) return legal.find((a) => a.call === "pass") ?? legal[0];
  if (kinds.has("play")) {
    const trump = ["O", "C", "E", "B"].includes(view.trump) ? view.trump : null;
    const key = (a) => strength(a.card) * 10 + (POINTS[parse(a.card)[0]] ?? 0);
    const plays = [...legal].sort((x, y) => key(x) - key(y));
    const highest = plays[plays.length - 1];
    const best = winningCard(view.trick, trump);
    return best === null || beats(highest.card, best, trump) ? highest : plays[0];
  }
  return legal[0];
}

// Joins the oldest public pairs table with an open seat, or opens one against
// three house bots and joins it; returns [table id, seat].
async function findTable(base, key) {
  const [status, page] = await request(base, "GET", "/v1/lobby?variant=pairs&limit=20");
  for (const table of status === 200 ? page.tables : []) {
    const [st, joined] = await request(base, "POST", `/v1/tables/${table.table_id}/join`, key, {});
    if (st === 200) return [table.table_id, joined.token.seat];
  }
  const seats = [{ kind: "open" }, { kind: "bot" }, { kind: "bot" }, { kind: "bot" }];
  const [st, created] = await request(base, "POST", "/v1/tables", null, { seats, auto_deal: true });
  if (st !== 201) throw new Error(`could not open a table: ${st} ${JSON.stringify(created)}`);
  const id = created.table.table_id;
  const [js, joined] = await request(base, "POST", `/v1/tables/${id}/join`, key, {});
  if (js !== 200) throw new Error(`could not join table ${id}: ${js} ${JSON.stringify(joined)}`);
  return [id, joined.token.seat];
}

// Plays one match as a registered bot player, driven by its event stream.
// Acts on a `your_turn` event of `version`; resolves to the moves made (0 or
// 1). A rate-limited request is tried again (`request` waited Retry-After):
// skipping the turn would leave the bot waiting for an event that never comes.
async function playTurn(base, table, key, version) {
  for (;;) {
    const [vs, view] = await request(base, "GET", `/v1/matches/${table}`, key);
    if (vs === 429) continue;
    // An older turn event than the match's state: a newer one follows.
    if (vs !== 200 || view.version !== version || view.legal_actions.length === 0) return 0;
    const action = { ...choose(view), expected_version: view.version };
    const [as, answer] = await request(base, "POST", `/v1/matches/${table}/actions`, key, action);
    if (as === 429) continue;
    if (as === 200) return 1;
    if (as === 409) return 0;
    throw new Error(`action refused: ${as} ${JSON.stringify(answer)}`);
  }
}

async function lobbyMode(base) {
  const [status, reg] = await request(base, "POST", "/v1/players", null, { name: "example-bot", kind: "bot" });
  if (status !== 201) {
    console.error(`could not register: ${status} ${JSON.stringify(reg)}`);
    return 1;
  }
  const key = reg.api_key; // secret: acts for this player's seats in any match
  console.log(`registered bot player ${reg.player.id}`);
  const [table, seat] = await findTable(base, key);
  console.log(`seated at table ${table}, seat ${seat}; following the player's event stream`);
  return follow(base, key, table);
}

// Plays the player's seat of `matchId` to the end, driven by its event stream.
async function follow(base, key, matchId) {
  let after = 0;
  let moves = 0;
  for (;;) {
    const [st, page] = await request(base, "GET", `/v1/players/me/events?after=${after}&wait_ms=25000`, key);
    if (st === 429) continue;
    if (st !== 200) {
      console.error(`cannot read the event stream: ${st} ${JSON.stringify(page)}`);
      return 1;
    }
    after = page.last_seq;
    for (const event of page.events) {
      if (event.match_id !== matchId) continue;
      if (event.type === "match_started") {
        console.log(`match ${matchId} started; playing seat ${event.seat}`);
      } else if (event.type === "your_turn") {
        moves += await playTurn(base, matchId, key, event.version);
      } else if (event.type === "match_over") {
        console.log(`final: scores ${JSON.stringify(event.scores)}, winner ${event.winner}, seat ${event.seat}, ${moves} moves`);
        return 0;
      }
    }
  }
}

// Queues for a rated match and plays it, as a registered bot player.
async function queueMode(base) {
  let key = process.env.BOTIFARRA_KEY;
  while (!key) {
    const [status, reg] = await request(base, "POST", "/v1/players", null, { name: "queue-bot", kind: "bot" });
    if (status === 429) continue;
    if (status !== 201) {
      console.error(`could not register: ${status} ${JSON.stringify(reg)}`);
      return 1;
    }
    key = reg.api_key; // secret: acts for this player's seats in any match
    console.log(`registered bot player ${reg.player.id}`);
  }
  const body = { variant: process.env.QUEUE_VARIANT ?? "pairs", rated: true };
  if (process.env.QUEUE_FILL_S) body.fill_with_house_bots_after_s = Number(process.env.QUEUE_FILL_S);
  let status, ticket;
  do {
    [status, ticket] = await request(base, "POST", "/v1/queue", key, body);
  } while (status === 429);
  if (status !== 201) {
    console.error(`could not queue: ${status} ${JSON.stringify(ticket)}`);
    return 1;
  }
  console.log(`queued: ticket ${ticket.ticket_id}, rating window ${JSON.stringify(ticket.window)}`);
  while (ticket.status === "waiting") {
    const [st, answer] = await request(base, "GET", `/v1/queue/${ticket.ticket_id}?wait_ms=25000`, key);
    if (st === 200) ticket = answer;
    else if (st !== 429) {
      console.error(`cannot read the ticket: ${st} ${JSON.stringify(answer)}`);
      return 1;
    }
  }
  if (ticket.status !== "matched") {
    console.error(`ticket ${ticket.status}`);
    return 1;
  }
  console.log(`matched after ${ticket.waited_ms} ms: match ${ticket.match_id}, seat ${ticket.seat}`);
  return follow(base, key, ticket.match_id);
}

async function main() {
  const args = process.argv.slice(2).filter((a) => a !== "--lobby" && a !== "--queue");
  const base = (args[0] ?? process.env.BOTIFARRA_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
  if (process.argv.includes("--lobby")) return lobbyMode(base);
  if (process.argv.includes("--queue")) return queueMode(base);
  const seats = [{ kind: "remote", name: "example" }, { kind: "bot" }, { kind: "bot" }, { kind: "bot" }];
  const [status, created] = await request(base, "POST", "/v1/matches", null, { seats, auto_deal: true });
  if (status !== 201) {
    console.error(`could not create a match: ${status} ${JSON.stringify(created)}`);
    return 1;
  }
  const id = created.match_id;
  const token = created.tokens[0].token;
  console.log(`match ${id}: playing seat 0 against three house bots`);
  let lastSeq = 0;
  let moves = 0;
  let view;
  for (;;) {
    let code;
    [code, view] = await request(base, "GET", `/v1/matches/${id}`, token);
    if (code === 429) continue; // rate limited: `request` waited Retry-After
    if (code !== 200) {
      console.error(`cannot read the match: ${code} ${JSON.stringify(view)}`);
      return 1;
    }
    if (view.phase === "match_over") break;
    if (view.legal_actions.length > 0) {
      const action = { ...choose(view), expected_version: view.version };
      const [st, answer] = await request(base, "POST", `/v1/matches/${id}/actions`, token, action);
      if (st === 200) moves += 1;
      else if (st !== 409 && st !== 429) {
        // 409: a stale view, 429: a busy server; anything else is a bug.
        console.error(`action refused: ${st} ${JSON.stringify(answer)}`);
        return 1;
      }
      continue;
    }
    const [st, page] = await request(base, "GET", `/v1/matches/${id}/events?after=${lastSeq}&wait_ms=10000`, token);
    if (st === 200) lastSeq = page.last_seq ?? lastSeq;
  }
  const { scores, winner } = view;
  const you = winner === 0 ? "you win" : winner === "draw" ? "draw" : "you lose";
  console.log(`final: scores ${JSON.stringify(scores)}, winner team ${winner} (${you}) after ${view.hands.length} hands, ${moves} moves`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
