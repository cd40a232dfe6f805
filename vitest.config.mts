import { defineConfig } from "vitest/config";

/**
 * The suite in four tiers, one vitest project each (docs/ci.md "Test tiers"). Only the tiers that
 * run the real Pulumi engine provide it, and only the resilience tier provides PostgreSQL and
 * SeaweedFS, so `npm run test:unit` and `npm run test:integration` need neither Go nor a cached
 * CLI (the integration tier provides a Python environment of the clients it runs, from PyPI).
 * `npm test` runs them all.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    // The end-to-end steps run the real engine; give them room, per test.
    slowTestThreshold: 10_000,
    projects: [
      {
        extends: true,
        // One process per worker for the whole tier, not one per file: pure logic, no state a file
        // leaves behind (the tier passes in any order: --sequence.shuffle), and a quarter of the CPU.
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], isolate: false },
      },
      {
        extends: true,
        // Provides the Python clients written elsewhere (runpod-python, openai, schemathesis), cached outside the repo.
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts", "test/package/**/*.test.ts"],
          globalSetup: ["test/integration/global-setup.ts"],
          // As the unit tier: one process per worker (each file starts its own emulator on port 0
          // and restores what it changes), 303 to 234 s of CPU for the tier.
          isolate: false,
        },
      },
      {
        extends: true,
        // Provides the Pulumi CLI before the tier's first test (built once, then cached outside the repo).
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], globalSetup: ["test/e2e/global-setup.ts"] },
      },
      {
        extends: true,
        // The CLI, and PostgreSQL and SeaweedFS for the shared-backend scenarios.
        test: {
          name: "resilience",
          include: ["test/resilience/**/*.test.ts"],
          globalSetup: ["test/resilience/global-setup.ts"],
        },
      },
    ],
  },
});
