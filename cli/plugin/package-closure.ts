import * as fs from "node:fs";
import * as path from "node:path";

/*
 * The packages a package needs at run time, found the way Node.js finds them (a `node_modules`
 * folder in each directory up from the one asking), and laid out again in a new `node_modules`
 * tree in which Node.js finds the same versions: each package at the top unless another version
 * of it already is, else inside the folder of the package that needs it.
 */

/** A package to copy, and where it goes relative to the new tree's root. */
export interface PlacedPackage {
  /** Its folder now (symbolic links resolved). */
  source: string;
  /** Its folder in the new tree, relative to the tree's root, e.g. `node_modules/undici`. */
  target: string;
}

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function manifestOf(dir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
}

/** The folder of package `name` as Node.js resolves it from `fromDir`, or undefined when it is not installed. */
export function resolvePackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== "node_modules") {
      const candidate = path.join(dir, "node_modules", name);
      if (fs.existsSync(path.join(candidate, "package.json"))) return fs.realpathSync(candidate);
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The packages `dir`'s package needs: dependencies, and the peers it does not mark optional. */
function needs(manifest: Manifest, extra: readonly string[] = []): { name: string; required: boolean }[] {
  const optionalPeer = (n: string) => manifest.peerDependenciesMeta?.[n]?.optional === true;
  return [
    ...Object.keys(manifest.dependencies ?? {}).map((name) => ({ name, required: true })),
    ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => ({ name, required: false })),
    ...Object.keys(manifest.peerDependencies ?? {})
      .filter((n) => !optionalPeer(n))
      .map((name) => ({ name, required: false })),
    ...extra.map((name) => ({ name, required: true })),
  ];
}

/**
 * The package at `root` (placed at `node_modules/<its name>`) and every package it needs, with
 * where each goes. `extraNeeds` are packages it needs beyond its dependencies (a peer dependency
 * it always loads). A required package that is not installed is an error naming it.
 */
export function packageClosure(root: string, extraNeeds: readonly string[] = []): PlacedPackage[] {
  const placed: PlacedPackage[] = [];
  /** The version placed at the top of the tree, by package name. */
  const top = new Map<string, string>();
  const rootManifest = manifestOf(root);
  const rootName = rootManifest.name ?? path.basename(root);
  const visit = (source: string, target: string, manifest: Manifest, extra: readonly string[]) => {
    placed.push({ source, target });
    for (const { name, required } of needs(manifest, extra)) {
      const dir = resolvePackageDir(name, source);
      if (!dir) {
        if (required) throw new Error(`${manifest.name ?? source} needs ${name}, which is not installed`);
        continue;
      }
      const dep = manifestOf(dir);
      const version = dep.version ?? "";
      const atTop = top.get(name);
      if (atTop === version) continue;
      let into: string;
      if (atTop === undefined) {
        top.set(name, version);
        into = path.join("node_modules", name);
      } else {
        into = path.join(target, "node_modules", name);
        if (placed.some((p) => p.target === into)) continue;
      }
      visit(dir, into, dep, []);
    }
  };
  top.set(rootName, rootManifest.version ?? "");
  visit(fs.realpathSync(root), path.join("node_modules", rootName), rootManifest, extraNeeds);
  return placed;
}
