// A bot written against the client orval generates from the server's
// OpenAPI document (its `fetch` client, compiled with `tsc --strict`), run
// by scripts/clients. It plays as a registered player with its API key:
// it registers (`POST /v1/players`), creates a match seating itself
// against three house bots, and plays it to the end from its player event
// stream alone (`GET /v1/players/me/events`, a long poll): each
// `your_turn` event names the match, the seat and the version; the bot
// reads the match's view and posts the first of the view's
// `legal_actions` unchanged, guarded by the view's version (`If-Match`).
// A long poll that ends with no event makes it look at the view itself, so
// a turn is never lost. Everything is typed by the document: no casts, no
// hand-built JSON.
//
//   node dist/bot.js [target]
//
// orval's fetch client takes the server's URL when it is generated
// (BOTIFARRA_URL, see orval.config.cjs).

import {
  HouseBot,
  Phase,
  PlayerKind,
  SeatKind,
  createMatch,
  createPlayer,
  getMatch,
  playerEvents,
  postAction,
} from "./gen/api.js";
import type { SeatSpec } from "./gen/api.js";

const target = Number(process.argv[2] ?? "20");

function fail(what: string, error: unknown): never {
  throw new Error(`${what}: ${JSON.stringify(error)}`);
}

const registered = await createPlayer({ name: "orval-bot", kind: PlayerKind.bot });
if (registered.status !== 201) fail("register", registered.data);
const me = registered.data.player.id;
const key: RequestInit = { headers: { Authorization: `Bearer ${registered.data.api_key}` } };

const house: SeatSpec = { kind: SeatKind.bot, bot: HouseBot.easy };
const created = await createMatch(
  { rules: { target }, seats: [{ player: me }, house, house, house], auto_deal: true },
  key,
);
if (created.status !== 201) fail("create", created.data);
const id = created.data.match_id;
console.log(`player ${me} created match ${id}`);

let after = 0;
let actedAt = -1;
let moves = 0;
let scores: number[] | undefined;
while (scores === undefined) {
  const page = await playerEvents({ after, wait_ms: 5000 }, {}, key);
  if (page.status !== 200) fail("player events", page.data);
  // orval types the answer by both of its media types: the long poll's
  // JSON page or one event of the stream. Without `Accept:
  // text/event-stream` it is the page, which the `in` test tells the
  // compiler.
  const body = page.data;
  if (!("events" in body)) fail("player events: not a page", body);
  let turn = body.events.length === 0;
  for (const e of body.events) {
    if ((e.type === "match_started" || e.type === "your_turn") && e.match_id === id) turn = true;
    if (e.type === "match_over" && e.match_id === id) scores = e.scores;
  }
  after = body.last_seq;
  if (scores !== undefined || !turn) continue;
  // The view says whose turn it is now and what that seat may do: act
  // once per version, only when the turn is the bot's seat.
  const view = await getMatch(id, {}, key);
  if (view.status !== 200) fail("view", view.data);
  const v = view.data;
  if (v.phase === Phase.match_over || v.turn !== v.you || v.version <= actedAt) continue;
  const action = v.legal_actions[0];
  if (action === undefined) continue;
  const posted = await postAction(id, action, { "If-Match": `"${v.version}"` }, key);
  if (posted.status !== 200) fail("action", posted.data);
  actedAt = v.version;
  moves += 1;
}

const final = await getMatch(id, {}, key);
if (final.status !== 200) fail("view", final.data);
if (final.data.phase !== Phase.match_over || final.data.scores.join() !== scores.join()) {
  fail("the match did not end as its event said", final.data);
}
console.log(
  `orval bot: ${moves} moves posted, final score ${scores.join("-")}, winner ${final.data.winner}`,
);
