import path from "node:path";
import { describe, expect, it } from "vitest";

// The layer check of `npm run lint:layers` (a CommonJS script, so it runs without a build).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LAYERS, layerProblems } = require("../../../scripts/check-emulator-layers.js") as {
  LAYERS: { name: string; folders: string[] }[];
  layerProblems: (root: string, files: { file: string; text: string }[]) => string[];
};

const root = path.resolve("/repo/emulator");
const file = (rel: string, text: string) => ({ file: path.join(root, rel), text });

describe("the emulator's layer check", () => {
  it("accepts imports from the same layer and the layers below", () => {
    const files = [
      file(
        "api/v1/pod-routes.ts",
        `import { x } from "../../pods/pod-create";\nimport type { S } from "../../server/server-context";`,
      ),
      file(
        "pods/pod-create.ts",
        `import { badField } from "../errors/http-errors";\nimport { y } from "../billing/prices";`,
      ),
      file(
        "start-emulator.ts",
        `import { buildServer } from "./server/build-server";\nimport { z } from "../sdk/schemas";`,
      ),
    ];
    expect(layerProblems(root, files)).toEqual([]);
  });

  it("refuses an upward import, a type-only import and a re-export alike, naming both files and layers", () => {
    const files = [
      file("pods/pod-create.ts", `import { Account } from "../store/account";`),
      file("billing/prices.ts", `import type { ServerContext } from "../server/server-context";`),
      file("errors/http-errors.ts", `export { single } from "../server/query-params";`),
    ];
    expect(layerProblems(root, files)).toEqual([
      "emulator/pods/pod-create.ts (domains) imports emulator/store/account (accounts, a layer above it)",
      "emulator/billing/prices.ts (domains) imports emulator/server/server-context (server, a layer above it)",
      "emulator/errors/http-errors.ts (base) imports emulator/server/query-params (server, a layer above it)",
    ]);
  });

  it("refuses a folder that is in no layer, so a new folder gets its place on purpose", () => {
    const problems = layerProblems(root, [file("gadgets/gadget.ts", `export const g = 1;`)]);
    expect(problems).toEqual([
      "emulator/gadgets/ is in no layer: add it to LAYERS in scripts/check-emulator-layers.js",
    ]);
  });

  it("places every folder in exactly one layer", () => {
    const folders = LAYERS.flatMap((l) => l.folders);
    expect(new Set(folders).size).toBe(folders.length);
  });
});
