import { defineConfig } from "vitest/config";

/** `npm run fleet`: the full fleet only (never part of `npm test`, whose include is `*.test.ts`). */
export default defineConfig({
  test: {
    include: ["test/resilience/fleet/fleet.fleet.ts"],
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/e2e/global-setup.ts"],
  },
});
