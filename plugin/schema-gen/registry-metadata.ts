import type { ProjectHome } from "../project-home";
import { PLUGIN_NAME } from "../type-tokens";
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
