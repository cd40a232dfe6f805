export { pluginTypeToken } from "../provider/runpod-resource";

/** The plugin's name: the `<package>` of its type tokens and config keys, and of its executable. */
export const PLUGIN_NAME = "runpod-iac";

/**
 * The resource type a URN names, when it is one of the plugin's tokens; undefined otherwise. A
 * URN's type part is `<parent type>$<type>` for a child, so only the last part counts.
 */
export function typeOfUrn(urn: string): string | undefined {
  const qualified = urn.split("::")[2] ?? "";
  const token = qualified.slice(qualified.lastIndexOf("$") + 1);
  const [pkg, module, type] = token.split(":");
  return pkg === PLUGIN_NAME && module === "index" && type ? type : undefined;
}

/** The stack, project and logical name a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`) holds. */
export function partsOfUrn(urn: string): { stack: string; project: string; name: string } {
  const parts = urn.split("::");
  return {
    stack: (parts[0] ?? "").replace(/^urn:pulumi:/, ""),
    project: parts[1] ?? "",
    name: parts.slice(3).join("::"),
  };
}
