import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pythonArchiveProblem } from "./checks";

/*
 * The Python SDK's wheel and sdist, built by `python -m build` with the backend its pyproject.toml
 * names (flit_core), in a pinned environment (scripts/release/requirements.txt), from a copy of
 * plugin/sdks/python, with SOURCE_DATE_EPOCH set: the same commit gives the same bytes.
 */

/** The release's Python environment's interpreter (scripts/provide-venv.sh --name release). */
export function releasePython(root: string): string {
  const venv = execFileSync(
    "bash",
    [
      path.join(root, "scripts", "provide-venv.sh"),
      "--name",
      "release",
      "--requirements",
      path.join(root, "scripts", "release", "requirements.txt"),
      "--import",
      "build,flit_core",
    ],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  ).trim();
  return path.join(venv, "bin", "python");
}

/** Builds the wheel and the sdist into `outDir`; returns their paths (wheel first). */
export function buildPythonDist(root: string, outDir: string, version: string, sourceDateEpoch: number): string[] {
  const python = releasePython(root);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-iac-python-"));
  try {
    const project = path.join(work, "python");
    fs.cpSync(path.join(root, "plugin", "sdks", "python"), project, { recursive: true });
    const built = path.join(work, "dist");
    execFileSync(python, ["-m", "build", "--no-isolation", "--wheel", "--sdist", "--outdir", built, project], {
      cwd: work,
      env: { ...process.env, SOURCE_DATE_EPOCH: String(sourceDateEpoch), PYTHONHASHSEED: "0" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const files = fs.readdirSync(built).sort((a, b) => Number(b.endsWith(".whl")) - Number(a.endsWith(".whl")));
    const problems = files.map((f) => pythonArchiveProblem(f, version)).filter((p): p is string => p !== undefined);
    if (files.length !== 2)
      problems.push(`python -m build wrote ${files.join(", ") || "nothing"}, not a wheel and an sdist`);
    if (problems.length > 0)
      throw new Error(`the Python SDK's archives disagree with the release:\n  ${problems.join("\n  ")}`);
    return files.map((f) => {
      fs.copyFileSync(path.join(built, f), path.join(outDir, f));
      return path.join(outDir, f);
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
