import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../../scripts/pulumi-cli";
import { buildRelease, type ReleaseResult } from "../../../scripts/release/release";
import { releasePython } from "../../../scripts/release/python-dist";
import { provideTypeScriptCompilers } from "../../package/typescript-compilers";
import { cacheRoot, runToolOk } from "./language-tools";

/*
 * What test/e2e/languages/standalone-plugin.test.ts sets up, lean: the release's linux-amd64
 * plugin and wheel built by `npm run release:artifacts`' code (the executable reused from the
 * cache when the plugin's code, schema and runtime are unchanged; the tarball at gzip's fastest
 * level), a fresh virtual environment the wheel is installed into by pip from a local folder of
 * the pinned dependencies' wheels (kept by the requirements' hash, so no index is asked), and the
 * TypeScript examples compiled by TypeScript 7.
 */

/** The pinned dependencies of the Python programs (the Pulumi SDK at the CLI's release). */
const REQUIREMENTS = path.join(REPO_ROOT, "test", "e2e", "languages", "python", "requirements.txt");

/** Builds the linux-amd64 plugin's tarball and the wheel into `out`. */
export async function buildTestRelease(out: string): Promise<ReleaseResult & { tarball: string; wheel: string }> {
  const release = await buildRelease({
    root: REPO_ROOT,
    out,
    platforms: ["linux-amd64"],
    parts: ["plugin", "python"],
    // The test runs on working trees with changes too; a release never does (docs/releasing.md).
    allowDirty: true,
    cache: cacheRoot(),
    gzipLevel: 1,
    log: () => undefined,
  });
  return {
    ...release,
    tarball: path.join(out, `pulumi-resource-runpod-iac-v${release.version}-linux-amd64.tar.gz`),
    wheel: path.join(out, `pulumi_runpod_iac-${release.version}-py3-none-any.whl`),
  };
}

/**
 * A folder of the wheels of every pinned dependency (`pip download`), cached by the hash of the
 * requirements and the interpreter; resolves to it.
 */
async function provideWheelhouse(python: string): Promise<string> {
  const version = (
    await runToolOk(python, ["-c", "import sys, sysconfig; print(sys.version, sysconfig.get_platform())"])
  ).trim();
  const key = crypto.createHash("sha256").update(version).update("\0").update(fs.readFileSync(REQUIREMENTS));
  const dest = path.join(cacheRoot(), `python-wheels-${key.digest("hex").slice(0, 16)}`);
  if (fs.existsSync(dest)) return dest;
  fs.mkdirSync(cacheRoot(), { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheRoot(), ".python-wheels-"));
  try {
    await runToolOk(python, [
      "-m",
      "pip",
      "download",
      "-q",
      "--disable-pip-version-check",
      "-d",
      work,
      "-r",
      REQUIREMENTS,
    ]);
    // Another run may have finished first; either folder holds the same pinned wheels.
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(work, dest);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return dest;
}

/**
 * A fresh virtual environment at `venv` with the wheel installed by pip and nothing else (its
 * dependencies held to the pins, from the local wheels); resolves to its `bin/python`. The
 * environment is made without a pip of its own: the release's environment's pip installs into it
 * (`pip --python`), which spares bootstrapping one per run.
 */
export async function freshVenvWithWheel(venv: string, wheel: string): Promise<string> {
  const pip = releasePython(REPO_ROOT);
  const wheels = await provideWheelhouse(pip);
  await runToolOk("python3", ["-m", "venv", "--without-pip", venv]);
  const python = path.join(venv, "bin", "python");
  await runToolOk(pip, [
    "-m",
    "pip",
    "--python",
    python,
    "install",
    "-q",
    "--disable-pip-version-check",
    "--no-compile",
    "--no-index",
    "--find-links",
    wheels,
    wheel,
    "-c",
    REQUIREMENTS,
  ]);
  return python;
}

/** Installs `tarball` into `home`'s plugin cache with `runpod-iac plugin install --file`; resolves to what it printed. */
export async function installWithOurCli(
  tarball: string,
  home: string,
  cliBin: string,
  extra: string[] = [],
): Promise<string> {
  const env = {
    ...process.env,
    PATH: `${cliBin}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const main = path.join(REPO_ROOT, "dist", "cli", "main.js");
  return runToolOk(process.execPath, [main, "plugin", "install", "--file", tarball, ...extra], { env });
}

/** Compiles the TypeScript program in `dir` with TypeScript 7's tsc (its tsconfig.json writes bin/). */
export async function compileWithTypeScript7(dir: string): Promise<void> {
  const tsc = path.join(provideTypeScriptCompilers().ts7, "bin", "tsc");
  await runToolOk(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir });
}
