import { defineConfig } from "vitest/config";

/** `npm run soak`: the soak file only (never part of `npm test`, whose include is `*.test.ts`). */
export default defineConfig({
  test: {
    include: ["test/resilience/soak/soak.soak.ts"],
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/e2e/global-setup.ts"],
  },
});
