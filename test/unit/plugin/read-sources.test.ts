import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readResourceSource, sourceProgram } from "../../../plugin/schema-gen/read-sources";

/*
 * The schema generator reads a resource's outputs from two places: the inputs its class repeats
 * (`interface X extends InputsAsOutputs<XArgs, Always, WhenSet>`) and the outputs declared on the
 * class. These sources are small stand-ins for provider/<type>.ts, compiled as the generator
 * compiles the real ones.
 */

const roots: string[] = [];
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/** A package root holding provider/network-volume.ts with `body`, read as the generator reads it. */
function read(body: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "read-sources-"));
  roots.push(root);
  fs.mkdirSync(path.join(root, "provider"));
  fs.writeFileSync(
    path.join(root, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, noLib: true, types: [] } }),
  );
  // Without the standard library (seconds to load per program): the two helpers the sources use.
  const preamble = `
    type Exclude<T, U> = T extends U ? never : T;
    type NonNullable<T> = T & {};
    type Output<T> = { get(): T };
    type Input<T> = T | Output<T>;
    type InputsAsOutputs<A, Always extends keyof A, WhenSet extends keyof A = never> = {
      readonly [K in Always]-?: Output<NonNullable<A[K]>>;
    } & { readonly [K in WhenSet]?: Output<A[K] | undefined> };
    export interface NetworkVolumeArgs {
      /** Name on the platform. */
      name?: Input<string>;
      /** Size in GB. */
      size: Input<number>;
      /** Storage tier. */
      type?: Input<"STANDARD" | "HIGH_PERFORMANCE">;
      /** Adopt an existing volume. */
      adoptId?: Input<string>;
    }
  `;
  fs.writeFileSync(path.join(root, "provider", "network-volume.ts"), preamble + body);
  return () => readResourceSource(sourceProgram(root, ["NetworkVolume"]), root, "NetworkVolume");
}

describe("reading a resource's outputs from its sources", () => {
  it("takes the inputs InputsAsOutputs repeats (Always set, WhenSet optional) with their docs, then the class's", () => {
    const source = read(`
      // The outputs that repeat inputs.
      export interface NetworkVolume extends InputsAsOutputs<NetworkVolumeArgs, "name" | "size", Exclude<keyof NetworkVolumeArgs, "name" | "size" | "adoptId">> {}
      /** A volume. */
      export class NetworkVolume {
        /** Where it is. */
        declare readonly url: Output<string | undefined>;
      }
    `)();
    expect(source.doc).toBe("A volume.");
    expect(source.outputs).toEqual([
      { name: "name", optional: false, doc: "Name on the platform.", type: { kind: "string", open: true } },
      { name: "size", optional: false, doc: "Size in GB.", type: { kind: "number" } },
      {
        name: "type",
        optional: true,
        doc: "Storage tier.",
        type: { kind: "string", values: ["STANDARD", "HIGH_PERFORMANCE"], open: false },
      },
      { name: "url", optional: true, doc: "Where it is.", type: { kind: "string", open: true } },
    ]);
  });

  it("reads a class without InputsAsOutputs as its declared outputs only", () => {
    const source = read(`
      /** A volume. */
      export class NetworkVolume {
        /** Size. */
        declare readonly size: Output<number>;
      }
    `)();
    expect(source.outputs.map((o) => o.name)).toEqual(["size"]);
  });

  it("fails, naming the output, when InputsAsOutputs names no input", () => {
    const source = read(`
      export interface NetworkVolume extends InputsAsOutputs<NetworkVolumeArgs, "size" | "ghost"> {}
      /** A volume. */
      export class NetworkVolume {}
    `);
    expect(source).toThrow(/output ghost of InputsAsOutputs is no input/);
  });

  it("fails, naming the output, when an output is both repeated and declared on the class", () => {
    const source = read(`
      export interface NetworkVolume extends InputsAsOutputs<NetworkVolumeArgs, "size"> {}
      /** A volume. */
      export class NetworkVolume {
        /** Size again. */
        declare readonly size: Output<number>;
      }
    `);
    expect(source).toThrow(/output size is both in InputsAsOutputs and declared on class NetworkVolume/);
  });
});
