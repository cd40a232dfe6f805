import { XMLBuilder, XMLParser } from "fast-xml-parser";

/** The namespace of every S3 answer document. */
export const S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

const builder = new XMLBuilder({ ignoreAttributes: false, suppressEmptyNode: false, processEntities: true });
// Every value stays a string (a key "007" or an ETag must not become a number); lists are arrays.
const parser = new XMLParser({ parseTagValue: false, isArray: (name) => name === "Part" || name === "Object" });

/** A whole answer document: the XML declaration, then `root` with S3's namespace. */
export function s3Document(root: string, body: Record<string, unknown>): string {
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    [root]: { "@_xmlns": S3_NAMESPACE, ...body },
  }) as string;
}

/** `<Error>` without the namespace, as S3 writes it. */
export function s3ErrorDocument(body: Record<string, string>): string {
  return builder.build({ "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" }, Error: body }) as string;
}

/** A request body read as XML; undefined when it is not well-formed. */
export function parseXml(text: string): Record<string, unknown> | undefined {
  try {
    return parser.parse(text, true) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
