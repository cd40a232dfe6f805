import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    // Provides the Pulumi CLI before any test (built once, then cached outside the repo).
    globalSetup: ["test/e2e/global-setup.ts"],
    // The end-to-end steps run the real engine; give them room, per test.
    slowTestThreshold: 10_000,
  },
});
