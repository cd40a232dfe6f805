import path from "node:path";
import type { TestProject } from "vitest/node";
import { REPO_ROOT, runProvideScript } from "../../scripts/pulumi-cli";

declare module "vitest" {
  export interface ProvidedContext {
    /** The virtual environment of the Python clients (`<dir>/bin/python`), made by scripts/provide-venv.sh. */
    pythonClients: string;
  }
}

/**
 * Provides what the integration tier runs besides Node.js, once before its first test: a Python
 * virtual environment with the clients written elsewhere that the emulator is tested against
 * (runpod-python, openai, schemathesis, boto3 and the AWS CLI; test/integration/clients/requirements.txt pins every
 * package). The first run installs them from PyPI (a few minutes on 2 busy cores); later runs
 * find the environment cached outside the repository in well under a second. No Go and no Pulumi
 * CLI: a missing or too old Python fails the tier with the reason, never skips a test.
 */
export default async function setup(project: TestProject): Promise<void> {
  const venv = await runProvideScript("provide-venv.sh", [
    "--name",
    "clients",
    "--requirements",
    path.join(REPO_ROOT, "test/integration/clients/requirements.txt"),
    "--import",
    "runpod,openai,schemathesis,boto3,awscli",
    // schemathesis 4 needs 3.11; runpod and openai 3.10.
    "--min-python",
    "3.11",
  ]);
  project.provide("pythonClients", venv);
}
