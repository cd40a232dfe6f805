import { createRequire } from "node:module";
import * as undici from "undici";
import { describe, expect, it } from "vitest";
import { AGENT_MODULE, Agent, loadAgent } from "../../../sdk/undici-agent";

const load = createRequire(__filename);

describe("undici's Agent without undici's index (sdk/undici-agent.ts)", () => {
  it("is the very class undici's index exports", () => {
    expect(Agent).toBe(undici.Agent);
    expect(load(AGENT_MODULE)).toBe(undici.Agent);
  });

  it.each(["MODULE_NOT_FOUND", "ERR_PACKAGE_PATH_NOT_EXPORTED"])(
    "falls back to the index when a later undici moves or hides the module (%s)",
    (code) => {
      const asked: string[] = [];
      const moved = (id: string) => {
        asked.push(id);
        if (id === AGENT_MODULE) throw Object.assign(new Error(`cannot load '${id}'`), { code });
        return load(id);
      };
      expect(loadAgent(moved)).toBe(undici.Agent);
      expect(asked).toEqual([AGENT_MODULE, "undici"]);
    },
  );

  it("does not hide any other failure to load the module", () => {
    const broken = () => {
      throw new SyntaxError("Unexpected token");
    };
    expect(() => loadAgent(broken)).toThrow(SyntaxError);
  });
});
