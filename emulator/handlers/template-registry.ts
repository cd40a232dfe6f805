import { readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BUILTIN_TEMPLATES } from "./builtin-handlers";
import type { JobHandler, Template } from "./handler-types";
import { handlerNameOfImage } from "./image-handler";

const HANDLER_FILE = /^([A-Za-z0-9][A-Za-z0-9_.-]*)\.(m?js|cjs)$/;

/** Picks the handler out of a loaded module: `default`, `handler`, or `default.handler` (CommonJS). */
function handlerOf(mod: Record<string, unknown>): JobHandler | undefined {
  const candidates = [mod.default, mod.handler, (mod.default as Record<string, unknown> | undefined)?.handler];
  return candidates.find((c): c is JobHandler => typeof c === "function");
}

/** The template of a handler file whose loading threw: what its container prints as it exits. */
function crashingTemplate(id: string, file: string, error: unknown): Template {
  const printed = error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;
  const startError = printed.split("\n")[0]!;
  return {
    id,
    handler: () => {
      throw new Error(`the container of handler ${id} exited at start: ${startError}`);
    },
    source: file,
    startError,
  };
}

/**
 * Loads `NAME.js` / `NAME.mjs` / `NAME.cjs` handler files of `dir` as templates `NAME`
 * (docs/emulator.md: a handler file in `--handlers DIR` adds template `NAME`). A file that throws
 * when loaded adds an image whose workers crash at start.
 */
export async function loadHandlerFiles(dir: string): Promise<Template[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const templates: Template[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const match = entry.isFile() ? HANDLER_FILE.exec(entry.name) : null;
    if (!match) continue;
    const file = path.resolve(dir, entry.name);
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      // A file that throws when loaded is an image whose container crashes at start, as a worker
      // whose model does not fit its GPU does: its workers are unhealthy, never the emulator.
      templates.push(crashingTemplate(match[1]!, file, error));
      continue;
    }
    const handler = handlerOf(mod);
    if (!handler) {
      throw new Error(`handler file ${file} must export a function as default or as "handler"`);
    }
    templates.push({ id: match[1]!, handler, source: file });
  }
  return templates;
}

/** The templates endpoints can use: built-ins, then handler files (a file may replace a built-in). */
export class TemplateRegistry {
  private readonly templates = new Map<string, Template>();

  constructor(extra: readonly Template[] = []) {
    for (const t of [...BUILTIN_TEMPLATES, ...extra]) this.templates.set(t.id, t);
  }

  get(id: string): Template | undefined {
    return this.templates.get(id);
  }

  /** Known template ids, sorted. */
  ids(): string[] {
    return [...this.templates.keys()].sort();
  }

  /**
   * What a worker of a template created through `/templates` runs: the handler its image names
   * (see image-handler.ts). An image that names no handler is accepted at create; its jobs fail
   * naming the image, as on a worker that cannot pull it.
   */
  forImage(imageName: string): Template {
    const name = handlerNameOfImage(imageName);
    const found = name === undefined ? undefined : this.templates.get(name);
    if (found) return found;
    const why =
      name === undefined
        ? `cannot run image ${JSON.stringify(imageName)}: it is not a valid image reference`
        : `cannot run image ${JSON.stringify(imageName)}: the emulator has no handler ${JSON.stringify(name)} ` +
          `(handlers: ${this.ids().join(", ")}; a file ${name}.js in --handlers adds one)`;
    return {
      id: name ?? imageName,
      handler: () => {
        throw new Error(why);
      },
      source: "image",
    };
  }
}
