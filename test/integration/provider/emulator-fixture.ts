import { type RunningEmulator, startEmulator } from "../../../emulator";
import { configureDirect } from "../../../provider/provider-config";
import { RunpodClient } from "../../../sdk/client";

/** An in-process emulator on a free port, a direct client for it, and the provider configured to use it. */
export async function providerAgainstEmulator(apiKey = "provider-it-key") {
  const emulator: RunningEmulator = await startEmulator({ port: 0, apiKeys: [apiKey], rateLimits: false });
  const options = { apiKey, apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl };
  configureDirect({ ...options, maxAttempts: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20 });
  const client = new RunpodClient(options);
  /** Sets the emulator's fault rules for this account. */
  const setFaults = async (rules: Record<string, unknown>[]) => {
    const res = await fetch(`${emulator.url}/_emulator/faults`, {
      method: "PUT",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ rules }),
    });
    if (!res.ok) throw new Error(`setting faults failed: ${res.status} ${await res.text()}`);
  };
  return {
    emulator,
    client,
    setFaults,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}
