import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * Where Pulumi's file backend (the "diy" backend, `file://<dir>`) keeps a stack, as its sources
 * lay it out (pkg/backend/diy): everything under `<dir>/.pulumi/`; the checkpoint at
 * `stacks/<project>/<stack>.json` (or `.json.gz`, `.json.zst`; `stacks/<stack>.json` in the
 * legacy layout without projects); the run's lock at `locks/organization/<project>/<stack>/<id>.json`
 * (`locks/<stack>/<id>.json` in the legacy layout). The storage library (gocloud.dev's fileblob)
 * keeps each file's attributes in a sidecar `<file>.attrs`, unless the URL says `metadata=skip`.
 */

/** A mistake in how `recover` was called: printed with the usage, exit code 2. */
export class RecoverUsageError extends Error {}

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
  /** The directory of the stack's lock files (absolute; may not exist). */
  lockDir: string;
}

/**
 * Parses a `file://` backend URL the way Pulumi does: `file://~` is the home directory, a
 * relative path is relative to the working directory, and the query is the storage library's.
 */
export function parseFileBackend(url: string, cwd = process.cwd()): FileBackend {
  if (!url.startsWith("file://")) {
    const scheme = /^([a-z0-9+.-]+):\/\//i.exec(url)?.[1] ?? "(none)";
    throw new RecoverUsageError(
      `--backend: scheme ${scheme} is not a file backend; recover repairs file:// backends only ` +
        "(object stores keep a file's attributes with the file, so a kill cannot leave them unreadable; there, `pulumi cancel` removes the dead run's lock)",
    );
  }
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
 * Finds a stack's checkpoint and lock directory. `stack` is `NAME` or `organization/PROJECT/NAME`;
 * without a project, the one project holding a stack of that name is used.
 */
export function locateStack(backend: FileBackend, stack: string, project?: string): StackLocation {
  const parts = stack.split("/");
  if (parts.length === 3) {
    if (project !== undefined && project !== parts[1]) {
      throw new RecoverUsageError(`--stack ${stack} names project ${parts[1]}, but --project is ${project}`);
    }
    [, project, stack] = parts as [string, string, string];
  } else if (parts.length !== 1 || stack === "") {
    throw new RecoverUsageError(`--stack ${stack}: must be NAME or organization/PROJECT/NAME`);
  }
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
  if (one) {
    const lockDir = path.join(backend.bookkeeping, "locks", "organization", one.project, stack);
    return { project: one.project, stack, checkpoint: one.checkpoint, lockDir };
  }
  const legacy = project === undefined ? checkpointIn(stacksDir, stack) : undefined;
  if (legacy)
    return { project: undefined, stack, checkpoint: legacy, lockDir: path.join(backend.bookkeeping, "locks", stack) };
  const where = project !== undefined ? `project ${project} of ` : "";
  throw new RecoverUsageError(`--stack ${stack}: no such stack in ${where}the backend at ${backend.dir}`);
}
