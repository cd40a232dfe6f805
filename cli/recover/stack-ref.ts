import { RecoverUsageError } from "./backend-url";
import type { RawText } from "./screen";

/**
 * Which stack `--stack` (and `--project`) name. Outside a project directory the engine names a
 * DIY backend's stacks `organization/<project>/<stack>` (Pulumi Cloud: `<org>/<project>/<stack>`;
 * a file backend in the legacy layout: `<stack>`), and its stack-level commands want that full
 * name, so `recover` looks the given name up among the backend's stacks (`pulumi stack ls --all`),
 * as the engine printed them: a name with a secret masked out of it names no stack.
 */

/** `--stack` taken apart: NAME, or ORG/PROJECT/NAME. */
export interface StackArg {
  /** The organization, when given. */
  org: string | undefined;
  /** The project, from `--stack` or `--project`. */
  project: string | undefined;
  name: string;
}

/** Reads `--stack` and `--project`; they must agree. */
export function parseStackArg(stack: string, project?: string): StackArg {
  const parts = stack.split("/");
  if (parts.length === 3 && parts.every((p) => p !== "")) {
    const [org, named, name] = parts as [string, string, string];
    if (project !== undefined && project !== named) {
      throw new RecoverUsageError(`--stack ${stack} names project ${named}, but --project is ${project}`);
    }
    return { org, project: named, name };
  }
  if (parts.length !== 1 || stack === "") {
    throw new RecoverUsageError(`--stack ${stack}: must be NAME or organization/PROJECT/NAME`);
  }
  return { org: undefined, project, name: stack };
}

/** The stacks' full names in what `pulumi stack ls --all --json` printed; undefined when it is not that JSON. */
export function stackNames(stdout: RawText): string[] | undefined {
  let listed: unknown;
  try {
    listed = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  if (!Array.isArray(listed)) return undefined;
  const names = listed.map((s: { name?: unknown }) => s?.name);
  return names.every((n): n is string => typeof n === "string") ? names : undefined;
}

/**
 * The full name, among the backend's stacks (`names`, as `pulumi stack ls --all --json` gives
 * them), of the one stack `arg` names. `backend` (its credentials masked) is for the messages.
 */
export function resolveStack(names: readonly string[], arg: StackArg, backend: string): string {
  const matches = names.filter((full) => {
    const parts = full.split("/");
    if (parts[parts.length - 1] !== arg.name) return false;
    if (arg.org !== undefined && parts[0] !== arg.org) return false;
    return arg.project === undefined || (parts.length === 3 && parts[1] === arg.project);
  });
  const given = arg.org !== undefined ? `${arg.org}/${arg.project}/${arg.name}` : arg.name;
  if (matches.length > 1) {
    const projects = matches.map((full) => full.split("/")[1] ?? full).join(", ");
    throw new RecoverUsageError(`--stack ${given}: projects ${projects} each have a stack of this name; add --project`);
  }
  const found = matches[0];
  if (found !== undefined) return found;
  const where = arg.project !== undefined && arg.org === undefined ? `project ${arg.project} of ` : "";
  throw new RecoverUsageError(`--stack ${given}: no such stack in ${where}the backend at ${backend}`);
}
