import * as fs from "node:fs";
import * as path from "node:path";
import * as esbuild from "esbuild";

/*
 * The standalone plugin's program as one CommonJS script (esbuild), for the single executable:
 * scripts/release/standalone-entry.ts with everything it loads. A single executable's script can
 * `require` only Node's own modules, so the two places the package finds modules on disk at run
 * time are replaced by bundled tables (scripts/release/shims/), and two packages @pulumi/pulumi
 * loads but the provider server never calls are left out (NOT_BUNDLED).
 */

/** Source files replaced in the bundle, by their path from the repository's root, with their stand-ins. */
const SHIMS: Readonly<Record<string, string>> = {
  "provider/pulumi-require.ts": "scripts/release/shims/pulumi-require.js",
  "sdk/undici-agent.ts": "scripts/release/shims/undici-agent.js",
};

/**
 * Packages @pulumi/pulumi loads at start for closure serialization (a program's dynamic resources),
 * which a provider never does: TypeScript (10.8 MB) and npm's arborist with what it loads (about
 * 1.5 MB). In the bundle each is an object whose every use throws, naming the package.
 */
const NOT_BUNDLED = ["typescript", "@npmcli/arborist"];

/** The modules the pulumi-require shim bundles by name, each of which must be the copy @pulumi/pulumi loads. */
const SHARED_WITH_PULUMI = ["@grpc/grpc-js", "google-protobuf/google/protobuf/struct_pb"];

/** What the bundle is made of: its size, and the bytes each package contributes. */
export interface BundleReport {
  file: string;
  bytes: number;
  /** Bytes in the output by package (`(runpod-iac)` for this package's own code), largest first. */
  packages: [string, number][];
}

/**
 * Checks that each module the shim bundles by name resolves, from the repository, to the file
 * @pulumi/pulumi's own code resolves it to: otherwise the bundle would hold two copies, and the
 * provider service the shim names would not be the one the server registers.
 */
export function checkSharedModules(root: string): void {
  const fromRoot = (id: string) => require.resolve(id, { paths: [root] });
  const pulumiDir = path.dirname(fromRoot("@pulumi/pulumi/package.json"));
  for (const id of SHARED_WITH_PULUMI) {
    const ours = fromRoot(id);
    const theirs = require.resolve(id, { paths: [pulumiDir] });
    if (ours !== theirs) {
      throw new Error(
        `${id} resolves to ${ours} from the repository but to ${theirs} from @pulumi/pulumi: the standalone plugin's bundle needs one copy (npm dedupe)`,
      );
    }
  }
}

/** The esbuild plugin that puts the shims in place and leaves out NOT_BUNDLED. */
function standalonePlugin(root: string): esbuild.Plugin {
  const shims = new Map(
    Object.entries(SHIMS).map(([source, shim]) => [path.join(root, source), path.join(root, shim)]),
  );
  const filter = new RegExp(`^(${NOT_BUNDLED.map((n) => n.replace(/[/.]/g, "\\$&")).join("|")})$`);
  return {
    name: "runpod-iac-standalone",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const shim = shims.get(args.path);
        if (!shim) return undefined;
        return { contents: fs.readFileSync(shim, "utf8"), loader: "js", resolveDir: path.dirname(shim) };
      });
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "not-bundled" }));
      build.onLoad({ filter: /.*/, namespace: "not-bundled" }, (args) => ({
        loader: "js",
        contents: `module.exports = new Proxy({}, { get(_t, key) {
  if (key === "__esModule" || key === "default" || typeof key === "symbol") return undefined;
  throw new Error("the standalone runpod-iac plugin does not carry ${args.path} (asked for " + String(key) + ")");
} });\n`,
      }));
    },
  };
}

/**
 * Bundles the standalone plugin's program into `outFile` for Node.js `nodeMajor`: syntax minified
 * (the names and lines stay, for errors and stack traces), no source map, no comments, the same
 * bytes for the same sources.
 */
export async function bundlePlugin(root: string, outFile: string, nodeMajor: number): Promise<BundleReport> {
  checkSharedModules(root);
  const result = await esbuild.build({
    entryPoints: [path.join(root, "scripts", "release", "standalone-entry.ts")],
    outfile: outFile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: `node${nodeMajor}`,
    // Lines stay lines: Node prints the source line of an uncaught error, and the engine shows it.
    minifySyntax: true,
    keepNames: true,
    legalComments: "none",
    metafile: true,
    logLevel: "silent",
    // esbuild warns where code resolves files at run time; the provider server does not take those paths.
    logOverride: { "require-resolve-not-external": "silent" },
    plugins: [standalonePlugin(root)],
  });
  const inputs = Object.values(result.metafile.outputs)[0]!.inputs;
  const packages = new Map<string, number>();
  for (const [file, input] of Object.entries(inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? "(runpod-iac)";
    packages.set(name, (packages.get(name) ?? 0) + input.bytesInOutput);
  }
  return {
    file: outFile,
    bytes: fs.statSync(outFile).size,
    packages: [...packages].sort((a, b) => b[1] - a[1]),
  };
}

/** The packages whose code is in the bundle (for the notices of their licenses). */
export function bundledPackages(report: BundleReport): string[] {
  return report.packages.map(([name]) => name).filter((name) => name !== "(runpod-iac)");
}
