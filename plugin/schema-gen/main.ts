/**
 * `npm run gen:schema`: writes plugin/schema.json, generated from the resources' field tables,
 * `Args`, classes and check schemas, and plugin/enums.ts, its enum types for TypeScript. With
 * `--check`, writes nothing and fails when a committed file differs from what would be generated.
 */
import * as fs from "node:fs";
import { generatedFiles } from "./generate";

const files = generatedFiles();
if (process.argv.includes("--check")) {
  const stale = Object.entries(files).filter(
    ([file, text]) => !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text,
  );
  for (const [file] of stale) process.stderr.write(`${file} is stale: run npm run gen:schema\n`);
  if (stale.length > 0) process.exit(1);
} else {
  for (const [file, text] of Object.entries(files)) {
    fs.writeFileSync(file, text);
    process.stdout.write(`wrote ${file}\n`);
  }
}
