import * as path from "node:path";
import { afterEach } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import type { StateBackend } from "../backends/state-backend";
import type { EmulatorOptions } from "../../emulator";
import { copyExample, createE2EStack, type E2EStack } from "./harness";

/*
 * What the tests of the examples share: a stack of an example copied as a user copies it, disposed
 * after each test, and a preview with the policy pack and the example's own policy-config.json.
 */

/** The policy pack, as `--policy-pack` names it. */
export const POLICY_DIR = path.join(REPO_ROOT, "policy");

/** Stacks of the examples in one test file, each disposed after the test that made it. */
export function useExampleStacks() {
  let stacks: E2EStack[] = [];
  afterEach(async () => {
    await Promise.all(stacks.map((s) => s.dispose()));
    stacks = [];
  });
  return {
    /** A stack of `examples/<name>` in a fresh copy, on the harness's emulator (or `emulator`'s options). */
    async exampleStack(
      name: string,
      stackName: string,
      backend?: StateBackend,
      emulator?: EmulatorOptions,
    ): Promise<E2EStack> {
      const workDir = copyExample(name);
      const e = await createE2EStack(
        name,
        {},
        {
          workDir,
          stackName,
          typescript: true,
          ...(backend ? { backend } : {}),
          ...(emulator ? { emulator } : {}),
        },
      );
      stacks.push(e);
      return e;
    },
    /** Disposes `e` now (before the backend it uses closes), not after the test. */
    async dispose(e: E2EStack): Promise<void> {
      await e.dispose();
      stacks = stacks.filter((s) => s !== e);
    },
  };
}

/** The engine's output of a preview with the policy pack and the example's policy-config.json. */
export async function previewWithPack(e: E2EStack): Promise<{ failed: boolean; output: string }> {
  let output = "";
  const failed = await e.stack
    .preview({
      policyPacks: [POLICY_DIR],
      policyPackConfigs: [path.join(e.workDir, "policy-config.json")],
      onOutput: (s) => {
        output += s;
      },
    })
    .then(
      () => false,
      (err: Error) => {
        output += err.message;
        return true;
      },
    );
  return { failed, output };
}
