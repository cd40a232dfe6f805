import type { ProjectHome } from "../project-home";
import { PLUGIN_NAME } from "../type-tokens";
import { type Example, examplesSection } from "./examples";
import type { PackageSchema } from "./schema-types";

/*
 * What the Pulumi Registry and the package indexes read beyond the types: the project's links,
 * its publisher and logo, where the engine downloads the plugin, and each language's published
 * names, all derived from package.json's `repository` (plugin/project-home.ts). Added to the
 * schema build-schema.ts writes, so the field tables and the types stay its concern alone.
 */

/** The Python package's README (its PyPI page): what it is, how to install it, where to read on. */
function pythonReadme(schema: PackageSchema, home: ProjectHome): string {
  const python = schema.language.python?.packageName as string;
  return `# ${python}

The Python SDK of the Pulumi provider \`${PLUGIN_NAME}\`: RunPod network volumes, serverless
endpoints, templates, registry credentials, pods, instant clusters and account secrets as Pulumi
resources, and the platform's catalog (GPU types, CPU flavors, data centers) as functions.

\`\`\`sh
pip install ${python.replace(/_/g, "-")}
\`\`\`

\`\`\`python
import pulumi
import ${python} as runpod

models = runpod.NetworkVolume("models", size=20, data_center_id="EU-RO-1")
pulumi.export("volumeId", models.id)
\`\`\`

The engine downloads the provider plugin of the package's version by itself (a single executable,
no Node.js needed) from the project's GitHub releases. Configuration: \`${PLUGIN_NAME}:apiKey\`
(or \`RUNPOD_API_KEY\`), \`${PLUGIN_NAME}:apiUrl\`, \`${PLUGIN_NAME}:queueUrl\`.

Documentation, every resource and example: ${home.url}/blob/main/docs/languages.md
`;
}

/** A resource's `## Import` section: the command for its token, and what an import cannot read. */
function importSection(token: string, writeOnly: readonly string[]): string {
  const type = token.slice(token.lastIndexOf(":") + 1);
  const name = type.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
  const unread = writeOnly.length
    ? `\n\nThe platform never returns ${writeOnly.map((k) => `\`${k}\``).join(" or ")}: the printed code leaves ${writeOnly.length > 1 ? "them" : "it"} empty. Give ${writeOnly.length > 1 ? "them" : "it"} in the program; the first \`pulumi up\` records ${writeOnly.length > 1 ? "them" : "it"} without replacing the ${type}.`
    : "";
  return `## Import\n\nAn existing ${type} is imported by its id on the platform (as its console and API show it); the engine reads it through the plugin and prints the code that declares it:\n\n\`\`\`sh\n$ pulumi import ${token} ${name} <id>\n\`\`\`${unread}`;
}

/** The description with its examples and, for a resource, its import section. */
function withSections(description: string, example: Example | undefined, importText?: string): string {
  return [description, example && examplesSection(example), importText].filter(Boolean).join("\n\n");
}

/**
 * `schema` with each resource's and function's examples (examples.ts) and each resource's
 * `## Import` section in its description; `writeOnly` names, by type, the inputs the platform
 * never returns.
 */
export function withRegistryDocs(
  schema: PackageSchema,
  examples: ReadonlyMap<string, Example>,
  writeOnly: Readonly<Record<string, readonly string[]>>,
): PackageSchema {
  const nameOf = (token: string) => token.slice(token.lastIndexOf(":") + 1);
  return {
    ...schema,
    resources: Object.fromEntries(
      Object.entries(schema.resources).map(([token, spec]) => [
        token,
        {
          ...spec,
          description: withSections(
            spec.description,
            examples.get(nameOf(token)),
            importSection(token, writeOnly[nameOf(token)] ?? []),
          ),
        },
      ]),
    ),
    functions: Object.fromEntries(
      Object.entries(schema.functions).map(([token, spec]) => [
        token,
        { ...spec, description: withSections(spec.description, examples.get(nameOf(token))) },
      ]),
    ),
  };
}

/**
 * `schema` with the project's links (`homepage`, `repository`), `publisher`, `logoUrl`,
 * `pluginDownloadURL`, and each language's published names: the Go module path of the SDK's
 * folder and the import path of its package, the Python package's README.
 */
export function withRegistryMetadata(schema: PackageSchema, home: ProjectHome): PackageSchema {
  const go = schema.language.go ?? {};
  const rootPackage = (go.rootPackageName as string | undefined) ?? PLUGIN_NAME.replace(/-/g, "");
  const { name, displayName, version, description, keywords, license, ...rest } = schema;
  return {
    name,
    displayName,
    version,
    description,
    keywords,
    homepage: home.url,
    license,
    repository: home.url,
    publisher: home.owner,
    logoUrl: home.logoUrl,
    pluginDownloadURL: home.pluginDownloadURL,
    ...rest,
    language: {
      ...schema.language,
      go: { ...go, modulePath: home.goModule, importBasePath: `${home.goModule}/${rootPackage}` },
      python: { ...schema.language.python, readme: pythonReadme(schema, home) },
    },
  };
}
