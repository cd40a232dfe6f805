import { afterAll, beforeAll, beforeEach } from "vitest";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../../emulator";
import { forgetSharedListings } from "../../../provider/create-once";
import { configureDirect } from "../../../provider/provider-config";
import { RunpodClient } from "../../../sdk/client";

/** A management API version the provider tests run on. */
export type ApiVersion = "v1" | "v2";

/** Both versions, for `describe.each`. */
export const API_VERSIONS: readonly ApiVersion[] = ["v1", "v2"];

/**
 * An in-process emulator on a free port, a direct client for it, and the provider configured to
 * use it, through management API `version` (v2, the default, unless a test pins v1); `options`
 * add to the emulator's (a small `pageSize`, say). Its workers are ready at once unless `options`
 * say otherwise (the rollout tests give them a boot time).
 */
export async function providerAgainstEmulator(
  apiKey = "provider-it-key",
  version: ApiVersion = "v2",
  options: EmulatorOptions = {},
) {
  const emulator: RunningEmulator = await startEmulator({
    port: 0,
    apiKeys: [apiKey],
    rateLimits: false,
    workerBootMs: 0,
    ...options,
  });
  const apiUrl = version === "v1" ? emulator.apiUrlV1 : emulator.apiUrlV2;
  const clientOptions = { apiKey, apiUrl, queueUrl: emulator.queueUrl };
  configureDirect({ ...clientOptions, maxAttempts: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20 });
  const client = new RunpodClient(clientOptions);
  /** Sets the emulator's fault rules for this account. */
  const setFaults = async (rules: Record<string, unknown>[]) => {
    const res = await fetch(`${emulator.url}/_emulator/faults`, {
      method: "PUT",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ rules }),
    });
    if (!res.ok) throw new Error(`setting faults failed: ${res.status} ${await res.text()}`);
  };
  /** Requests the emulator answered for this account, by route (`METHOD /route`), since the last call. */
  const takeRequestCounts = async (): Promise<Record<string, number>> => {
    const headers = { authorization: `Bearer ${apiKey}` };
    const stats = (await (await fetch(`${emulator.url}/_emulator/stats`, { headers })).json()) as {
      requests: { byRoute: Record<string, number> };
    };
    await fetch(`${emulator.url}/_emulator/stats/reset`, { method: "POST", headers });
    return stats.requests.byRoute;
  };
  return {
    emulator,
    version,
    client,
    setFaults,
    takeRequestCounts,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

/**
 * The fixture of the provider integration tests: one emulator for the file, and each test plays a
 * new `pulumi up` (a new provider process, so no listing is shared with the previous test).
 */
export function useProviderAgainstEmulator(
  version: ApiVersion = "v2",
  options: EmulatorOptions = {},
): {
  readonly current: Awaited<ReturnType<typeof providerAgainstEmulator>>;
} {
  let env: Awaited<ReturnType<typeof providerAgainstEmulator>> | undefined;
  beforeAll(async () => {
    env = await providerAgainstEmulator(undefined, version, options);
  });
  afterAll(() => env?.close());
  beforeEach(forgetSharedListings);
  return {
    get current() {
      if (!env) throw new Error("the provider fixture has not started");
      return env;
    },
  };
}
