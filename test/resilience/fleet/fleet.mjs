// `npm run fleet [-- --environments N] [--regions N] [--runners N] [--per-stack N] [--backend file|postgres|s3] [--seed N]`:
// runs fleet.fleet.ts through vitest with these settings (defaults: 4 environments x 5 regions,
// 4 runners, 2 volumes and 2 endpoints per stack, a file backend, a fresh seed, printed).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    environments: { type: "string" },
    regions: { type: "string" },
    runners: { type: "string" },
    "per-stack": { type: "string" },
    backend: { type: "string" },
    seed: { type: "string" },
  },
});
const whole = (flag, raw, fallback, max) => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  const min = flag === "seed" ? 0 : 1;
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${flag} ${raw}: must be a whole number from ${min} to ${max}`);
    process.exit(2);
  }
  return n;
};
const backend = values.backend ?? "file";
if (!["file", "postgres", "s3"].includes(backend)) {
  console.error(`--backend ${backend}: must be file, postgres or s3`);
  process.exit(2);
}
const settings = {
  FLEET_ENVIRONMENTS: whole("environments", values.environments, 4, 4),
  FLEET_REGIONS: whole("regions", values.regions, 5, 5),
  FLEET_RUNNERS: whole("runners", values.runners, 4, 16),
  FLEET_PER_STACK: whole("per-stack", values["per-stack"], 2, 20),
  FLEET_BACKEND: backend,
  FLEET_SEED: whole("seed", values.seed, Math.floor(Math.random() * 2 ** 30), 2 ** 31 - 1),
};
const root = path.resolve(import.meta.dirname, "../../..");
const result = spawnSync("npx", ["vitest", "run", "--config", "test/resilience/fleet/vitest.config.mts"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, ...Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, String(v)])) },
});
process.exit(result.status ?? 1);
