/**
 * `npm run gen:fields`: writes what the fields' declarations (the JSDoc tags of each resource's
 * `Args`) derive: provider/field-rules.ts, sdk/schemas/resource-fields.ts and the tables of
 * docs/resources.md. With `--check`,
 * writes nothing and fails when a committed file differs from what would be written.
 */
import * as fs from "node:fs";
import { generatedFieldFiles } from "./generate";

async function main(): Promise<void> {
  const files = await generatedFieldFiles();
  if (process.argv.includes("--check")) {
    const stale = Object.entries(files).filter(
      ([file, text]) => !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text,
    );
    for (const [file] of stale) process.stderr.write(`${file} is stale: run npm run gen:fields\n`);
    if (stale.length > 0) process.exitCode = 1;
    return;
  }
  for (const [file, text] of Object.entries(files)) {
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) continue;
    fs.writeFileSync(file, text);
    process.stdout.write(`wrote ${file}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
