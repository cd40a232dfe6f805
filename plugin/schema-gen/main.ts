/**
 * `npm run gen:schema`: writes plugin/schema.json, generated from the resources' field tables,
 * `Args`, classes and check schemas. With `--check`, writes nothing and fails when the committed
 * file differs from what would be generated.
 */
import * as fs from "node:fs";
import { schemaPath } from "../plugin-schema";
import { generateSchema, schemaFileText } from "./generate";

const text = schemaFileText(generateSchema());
const file = schemaPath();
if (process.argv.includes("--check")) {
  const committed = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  if (committed !== text) {
    process.stderr.write(`${file} is stale: run npm run gen:schema\n`);
    process.exit(1);
  }
} else {
  fs.writeFileSync(file, text);
  process.stdout.write(`wrote ${file}\n`);
}
