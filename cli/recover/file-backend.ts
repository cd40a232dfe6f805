import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RecoverUsageError } from "./backend-url";
import { parseStackArg } from "./stack-ref";

/**
 * Where Pulumi's file backend (the "diy" backend, `file://<dir>`) keeps a stack, as its sources
 * lay it out (pkg/backend/diy): everything under `<dir>/.pulumi/`; the checkpoint at
 * `stacks/<project>/<stack>.json` (or `.json.gz`, `.json.zst`; `stacks/<stack>.json` in the
 * legacy layout without projects); the run's lock at `locks/organization/<project>/<stack>/<id>.json`
 * (`locks/<stack>/<id>.json` in the legacy layout). The storage library (gocloud.dev's fileblob)
 * keeps each file's attributes in a sidecar `<file>.attrs`, unless the URL says `metadata=skip`.
 */

/** A file backend as given by its URL. */
export interface FileBackend {
  /** The backend directory (absolute). */
  dir: string;
  /** `<dir>/.pulumi`, where Pulumi keeps everything. */
  bookkeeping: string;
  /** The URL asked for no sidecars (`?metadata=skip`). */
  metadataSkip: boolean;
}

/** Where one stack lives in a file backend. */
export interface StackLocation {
  /** The project, or undefined in the legacy layout. */
  project: string | undefined;
  stack: string;
  /** The checkpoint file (absolute). */
  checkpoint: string;
}

/**
 * Parses a `file://` backend URL (the caller checked the scheme) the way Pulumi does: `file://~` is the home directory, a
 * relative path is relative to the working directory, and the query is the storage library's.
 */
export function parseFileBackend(url: string, cwd = process.cwd()): FileBackend {
  const [rawPath = "", query = ""] = url.slice("file://".length).split("?", 2);
  let dir = decodeURIComponent(rawPath);
  if (dir === "~" || dir.startsWith("~/")) dir = path.join(os.homedir(), dir.slice(1));
  if (dir === "") throw new RecoverUsageError("--backend: file:// needs a directory, e.g. file:///var/pulumi-state");
  dir = path.resolve(cwd, dir);
  return {
    dir,
    bookkeeping: path.join(dir, ".pulumi"),
    metadataSkip: new URLSearchParams(query).get("metadata") === "skip",
  };
}

const CHECKPOINT_SUFFIXES = [".json", ".json.gz", ".json.zst"];

function checkpointIn(dir: string, stack: string): string | undefined {
  return CHECKPOINT_SUFFIXES.map((s) => path.join(dir, stack + s)).find((f) => fs.existsSync(f));
}

function subdirectories(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * Finds a stack's checkpoint (read before any engine command: a checkpoint that is not JSON breaks them all). `stack` is `NAME` or `organization/PROJECT/NAME`;
 * without a project, the one project holding a stack of that name is used.
 */
export function locateStack(backend: FileBackend, stack: string, project?: string): StackLocation {
  ({ project, name: stack } = parseStackArg(stack, project));
  const stacksDir = path.join(backend.bookkeeping, "stacks");
  const projects = project !== undefined ? [project] : subdirectories(stacksDir);
  const found = projects
    .map((p) => ({ project: p, checkpoint: checkpointIn(path.join(stacksDir, p), stack) }))
    .filter((f): f is { project: string; checkpoint: string } => f.checkpoint !== undefined);
  if (found.length > 1) {
    throw new RecoverUsageError(
      `--stack ${stack}: projects ${found.map((f) => f.project).join(", ")} each have a stack of this name; add --project`,
    );
  }
  const one = found[0];
  if (one) return { project: one.project, stack, checkpoint: one.checkpoint };
  const legacy = project === undefined ? checkpointIn(stacksDir, stack) : undefined;
  if (legacy) return { project: undefined, stack, checkpoint: legacy };
  const where = project !== undefined ? `project ${project} of ` : "";
  throw new RecoverUsageError(`--stack ${stack}: no such stack in ${where}the backend at ${backend.dir}`);
}
