// `npm run soak [-- --seeds N] [--first SEED] [--jobs J]`: runs soak.soak.ts through vitest with
// these settings. Seeds are consecutive from --first (default: a fresh random start, printed).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { seeds: { type: "string" }, first: { type: "string" }, jobs: { type: "string" } },
});
const whole = (flag, raw, fallback) => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (flag === "first" ? 0 : 1)) {
    console.error(`--${flag} ${raw}: must be a whole number${flag === "first" ? "" : " >= 1"}`);
    process.exit(2);
  }
  return n;
};
const seeds = whole("seeds", values.seeds, 100);
const first = whole("first", values.first, Math.floor(Math.random() * 2 ** 30));
const jobs = whole("jobs", values.jobs, 2);
const root = path.resolve(import.meta.dirname, "../../..");
const result = spawnSync("npx", ["vitest", "run", "--config", "test/resilience/soak/vitest.config.mts"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, SOAK_SEEDS: String(seeds), SOAK_FIRST: String(first), SOAK_JOBS: String(jobs) },
});
process.exit(result.status ?? 1);
