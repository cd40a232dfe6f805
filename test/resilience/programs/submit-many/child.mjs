// The process test/resilience/submit-many-kill.test.ts kills: `submitMany` through the batch API
// over `COUNT` inputs `{ tag, i, ms }`, with the journal `JOURNAL`, each outcome written as one
// line of `OUT` (so the test sees what this run reported), then `done` on its own line.
import * as fs from "node:fs";
import { RunpodClient } from "../../../../dist/sdk/index.js";

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const client = new RunpodClient({ apiKey: env("KEY"), apiUrl: env("API_URL"), queueUrl: env("QUEUE_URL") });
const count = Number(env("COUNT"));
const tag = env("TAG");
const out = fs.openSync(env("OUT"), "a");

function* inputs() {
  for (let i = 0; i < count; i++) yield { input: { tag, i, ms: 2 } };
}

const options = {
  submitWith: "batch",
  journal: env("JOURNAL"),
  batchSize: 200,
  maxActiveBatches: 3,
  pollIntervalMs: 20,
};
for await (const o of client.jobs(env("ENDPOINT")).submitMany(inputs(), options)) {
  const line = { index: o.index, kind: o.kind, status: o.kind === "ended" ? o.job.status : undefined };
  fs.writeSync(out, `${JSON.stringify(line)}\n`);
}
fs.writeSync(out, "done\n");
await client.close();
