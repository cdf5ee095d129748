// What two of the generated clients make of the event streams, checked by
// the compiler: scripts/generators copies this file beside the code it
// generated (target/generators/out/) and compiles it with `tsc --strict`.
// Each check fails to compile when the document stops describing a
// stream's items as the events they are.
import { streamEvents } from "./hey-api/index";
import type { Event } from "./hey-api/index";
import type { components, paths } from "./openapi-typescript/api";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function holds<T extends true>(): T | undefined {
  return undefined;
}

// @hey-api/openapi-ts: the match's stream yields each event's `data`,
// parsed, as an `Event` (`void` stands for the `204` of a finished match
// whose events were all sent): a bot tells the events apart by `type`,
// with no cast.
type HeyItem =
  Awaited<ReturnType<typeof streamEvents>>["stream"] extends AsyncGenerator<infer T, unknown, unknown>
    ? T
    : never;
holds<Same<HeyItem, Event | void>>();

export async function finalScores(id: string): Promise<number[] | undefined> {
  const { stream } = await streamEvents({ path: { id } });
  for await (const event of stream) {
    if (event && event.type === "match_over") return event.scores;
  }
  return undefined;
}

// openapi-typescript: the `text/event-stream` answers are the unions.
type StreamItem<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { "text/event-stream": infer T } } } };
}
  ? T
  : never;
holds<Same<StreamItem<"/v1/matches/{id}/stream">, components["schemas"]["Event"]>>();
holds<Same<StreamItem<"/v1/players/me/events">, components["schemas"]["PlayerEvent"]>>();
