import { changeOf, orderOf } from "../../provider/field-rule-types";
import type { DeclaredVersion, FieldDeclaration } from "./read-fields";
import type { KindFields } from "./tables-source";

/*
 * The tables of docs/resources.md that say how each input changes a deployed resource: one row
 * per input, its change from its tags and its notes from its doc comment, so the table, the
 * editor's hover and the field table are one declaration. Each table sits between two markers in
 * the page; the prose around it is the page's own.
 */

/** The marker a kind's table starts after. */
export function startMarker(kind: string): string {
  return `<!-- ${kind} fields: written by npm run gen:fields from ${kind}Args; do not edit -->`;
}

/** The marker a kind's table ends before. */
export function endMarker(kind: string): string {
  return `<!-- end of ${kind} fields -->`;
}

/** `(v2 only)`, and the values the other version takes too. */
function versionText(version: DeclaredVersion | undefined): string {
  if (!version) return "";
  const other = version.only === "v1" ? "v2" : "v1";
  const neutral = version.neutral?.map((v) => `\`${JSON.stringify(v)}\``).join(", ");
  return neutral ? ` (${version.only} only; ${other} takes ${neutral})` : ` (${version.only} only)`;
}

/** The change column of a field's row. */
function changeText(field: FieldDeclaration): string {
  // adoptId acts at create only; the rollout settings are read by every step that rolls.
  if (field.bookkeeping) return field.name === "adoptId" ? "ignored after creation" : "never sent; read by each step";
  const change = changeOf(field.rule);
  const order = orderOf(field.rule);
  const words = change === "update in place" ? change : `**${change}**`;
  return `${words}${order ? `, ${order}` : ""}${versionText(field.version)}`;
}

/** A cell's text: one line, its pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n+\s*/g, " ").replace(/\|/g, "\\|");
}

/** The markdown table of one kind's inputs. */
export function fieldTable(fields: readonly FieldDeclaration[]): string {
  return [
    "| input | change | notes |",
    "| --- | --- | --- |",
    ...fields.map((f) => `| \`${f.name}\` | ${changeText(f)} | ${cell(f.doc)} |`),
  ].join("\n");
}

/**
 * `page` with each kind's table written between its markers; an error names a kind whose markers
 * are missing (every kind has a table in the page).
 */
export function withFieldTables(page: string, kinds: KindFields): string {
  let out = page;
  for (const { kind, fields } of kinds) {
    const start = out.indexOf(startMarker(kind));
    const end = out.indexOf(endMarker(kind));
    if (start < 0 || end < start) {
      throw new Error(
        `docs/resources.md has no table of ${kind}: add the lines\n${startMarker(kind)}\n${endMarker(kind)}`,
      );
    }
    const before = out.slice(0, start + startMarker(kind).length);
    out = `${before}\n${fieldTable(fields)}\n${out.slice(end)}`;
  }
  return out;
}
