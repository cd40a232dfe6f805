import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sourceProgram } from "../../../plugin/schema-gen/read-sources";
import { generatedFieldFiles } from "../../../scripts/field-gen/generate";
import { readFieldDeclarations } from "../../../scripts/field-gen/read-fields";

/*
 * A field is declared once, by its `Args` property and the JSDoc tags on it. What derives from
 * that (the field tables of provider/field-rules.ts, the client's sdk/schemas/resource-fields.ts,
 * the tables of docs/resources.md) is written by `npm run gen:fields` and committed: these tests
 * fail when a committed file is stale, and show the tags read as they are declared.
 */

const roots: string[] = [];
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/** The fields of a NetworkVolumeArgs whose members are `members`, read as the generator reads them. */
function declared(members: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "field-declarations-"));
  roots.push(root);
  fs.mkdirSync(path.join(root, "provider"));
  fs.writeFileSync(
    path.join(root, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, noLib: true, types: [] } }),
  );
  const source = `
    interface Array<T> { length: number; [n: number]: T }
    type Output<T> = { get(): T };
    type Input<T> = T | Output<T>;
    export interface NetworkVolumeArgs {
      ${members}
    }
  `;
  fs.writeFileSync(path.join(root, "provider", "network-volume.ts"), source);
  return () => readFieldDeclarations(sourceProgram(root, ["NetworkVolume"]), root, "NetworkVolume");
}

describe("the fields' declarations", () => {
  it("wrote every file that derives from them: the committed files are what they generate (else: npm run gen:fields)", async () => {
    const files = await generatedFieldFiles();
    expect(
      Object.keys(files)
        .map((f) => path.relative(process.cwd(), f))
        .sort(),
    ).toEqual(["docs/resources.md", "provider/field-rules.ts", "sdk/schemas/resource-fields.ts"]);
    for (const [file, text] of Object.entries(files)) expect(fs.readFileSync(file, "utf8"), file).toBe(text);
  }, 120_000);

  it("reads each input's rule, version and v2 names from its tags, and its doc without them", () => {
    const fields = declared(`
      /**
       * Data center.
       * @replaces
       * @wire v2 dataCenter
       */
      dataCenterId: Input<string>;
      /**
       * Tiers, in no order.
       * @unordered
       * @apiVersion v2 storage tiers (tiers)
       * @neutral []
       * @freeText
       */
      tiers?: Input<Input<string>[]>;
      /** Adopt one. */
      adoptId?: Input<string>;
    `)();
    expect(fields).toEqual([
      {
        name: "dataCenterId",
        doc: "Data center.",
        bookkeeping: false,
        rule: { replaces: true },
        wireV2: ["dataCenter"],
      },
      {
        name: "tiers",
        doc: "Tiers, in no order.",
        bookkeeping: false,
        rule: { ordered: false },
        version: { only: "v2", what: "storage tiers (tiers)", neutral: [[]], freeText: true },
        wireV2: [],
      },
      { name: "adoptId", doc: "Adopt one.", bookkeeping: true, rule: {}, wireV2: [] },
    ]);
  });

  it.each([
    ["a tag no field has", "@replace", "NetworkVolumeArgs.size: @replace"],
    ["@replaces with @resets", "@replaces\n * @resets", "@replaces and @resets together"],
    ["@unordered on a value", "@unordered", "@unordered and @orderedOn are for lists"],
    ["a meaning that is none", "@meaning bigger", "@meaning bigger: is none of"],
    ["a version without its words", "@apiVersion v3", "is `@apiVersion <v1|v2> <what>`"],
  ])("refuses %s, naming the field and the tag", (_, tags, message) => {
    expect(declared(`/**\n * Size.\n * ${tags}\n */\n size: Input<number>;`)).toThrow(message);
  });
});
