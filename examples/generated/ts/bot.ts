// A bot written against the TypeScript client generated from the server's
// OpenAPI document (openapi-typescript types + openapi-fetch), run by
// scripts/clients. It creates a match of four remote seats and plays all
// four: it follows the match from its events alone (as a spectator) and,
// when an event hands the turn to a seat, asks that seat's legal moves and
// posts the first one through `/actions` exactly as listed, guarded by the
// event's version (`If-Match`). Everything is typed by the document: no
// casts, no hand-built JSON.
//
//   node dist/bot.js http://127.0.0.1:8080 [target]

import createClient from "openapi-fetch";
import type { components, paths } from "./gen/api.js";

type Event = components["schemas"]["Event"];
type Action = components["schemas"]["Action"];

const base = process.argv[2] ?? "http://127.0.0.1:8080";
const target = Number(process.argv[3] ?? "20");
const api = createClient<paths>({ baseUrl: base });

function fail(what: string, error: unknown): never {
  throw new Error(`${what}: ${JSON.stringify(error)}`);
}

function describe(e: Event): string | undefined {
  switch (e.type) {
    case "hand_dealt":
      return `hand ${e.hand_number} dealt by seat ${e.dealer}`;
    case "trump_chosen":
      return `seat ${e.seat} names ${e.trump}`;
    case "hand_scored":
      return `hand ${e.result.hand_number}: points ${e.result.points.join("-")}, recorded ${e.result.recorded.join("-")}`;
    case "match_over":
      return `match over: winner ${e.winner}, scores ${e.scores.join("-")}`;
    default:
      return undefined;
  }
}

const created = await api.POST("/v1/matches", {
  body: { rules: { target, first_dealer: 0 }, seats: [{}, {}, {}, {}], auto_deal: true },
});
if (!created.data) fail("create", created.error);
const id = created.data.match_id;
const tokens = new Map<number, string>(created.data.tokens.map((t) => [t.seat, t.token]));
const auth = (seat: number) => ({ Authorization: `Bearer ${tokens.get(seat) ?? ""}` });

let after = 0;
let actedAt = -1;
let moves = 0;
let over = false;
while (!over) {
  const page = await api.GET("/v1/matches/{id}/events", {
    params: { path: { id }, query: { after, wait_ms: 5000 } },
  });
  if (!page.data) fail("events", page.error);
  const events: Event[] = page.data.events;
  const newest = Math.max(...events.map((e) => e.version ?? -1));
  for (const e of events) {
    after = e.seq;
    const line = describe(e);
    if (line) console.log(line);
    if (e.type === "match_over") over = true;
  }
  const last = events.at(-1);
  // Every event of a move carries the version it produced and the seat to
  // act after it; act once per version, on the newest.
  if (over || last === undefined || last.turn == null || last.version === undefined) continue;
  if (last.version !== newest || last.version <= actedAt) continue;
  const seat = last.turn;
  const legal = await api.GET("/v1/matches/{id}/legal-moves", {
    params: { path: { id } },
    headers: auth(seat),
  });
  if (!legal.data) fail("legal-moves", legal.error);
  const action: Action | undefined = legal.data.actions[0];
  if (action === undefined) fail("no legal action for the seat to act", legal.data);
  const posted = await api.POST("/v1/matches/{id}/actions", {
    params: { path: { id }, header: { "If-Match": `"${last.version}"` } },
    headers: auth(seat),
    body: action,
  });
  if (!posted.data) fail("action", posted.error);
  actedAt = last.version;
  moves += 1;
}

const view = await api.GET("/v1/matches/{id}", { params: { path: { id } } });
if (!view.data) fail("view", view.error);
if (view.data.phase !== "match_over" || view.data.last_seq !== after) {
  fail("the match did not end where its events did", view.data);
}
console.log(`typescript bot: ${moves} moves posted, ${after} events read, winner ${view.data.winner}`);
