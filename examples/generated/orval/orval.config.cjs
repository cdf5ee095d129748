// orval's configuration for the bot of this directory (scripts/clients):
// a fetch client in one file, with typed headers, whose requests go to
// BOTIFARRA_URL (orval's fetch client takes its base URL when it is
// generated).
module.exports = {
  botifarra: {
    input: { target: "../../../openapi/openapi.json" },
    output: {
      target: "gen/api.ts",
      client: "fetch",
      headers: true,
      baseUrl: process.env.BOTIFARRA_URL ?? "http://127.0.0.1:8080",
    },
  },
};
