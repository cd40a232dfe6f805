import { describe, expect, it } from "vitest";
import { DEFAULT_QUOTA_WINDOWS } from "../../../emulator";
import { PROVIDER_RETRY_BUDGET_MS, providerClient } from "../../../provider/provider-config";

describe("the provider's client", () => {
  // The same budget on both versions: v1 publishes no quota, v2's default is 60 requests a minute.
  it.each(["v2", "v1"])(
    "on %s, lets the requests of a 500-resource up wait their turn under v2's default quota",
    async (version) => {
      const client = await providerClient({ apiKey: "rpa_unit_budget", apiUrl: `http://127.0.0.1:1/${version}` });
      expect(client.apiVersion).toBe(version);
      const budgetMs = client.transport.config.retryBudgetMs;
      expect(budgetMs).toBe(PROVIDER_RETRY_BUDGET_MS);
      // 500 creates queued at once: the last is sent in the minute window ceil(500 / 60) - 1 after
      // the first, and must still be inside its request's budget (the hour's 3,000 do not bind).
      const minute = DEFAULT_QUOTA_WINDOWS.find((w) => w.name === "minute")!;
      const lastTurnMs = (Math.ceil(500 / minute.quota) - 1) * minute.seconds * 1000;
      expect(budgetMs).toBeGreaterThan(lastTurnMs + minute.seconds * 1000);
      // Failed attempts stay bounded by their count, whatever the budget.
      expect(client.transport.config.maxAttempts).toBe(6);
      await client.close();
    },
  );
});
