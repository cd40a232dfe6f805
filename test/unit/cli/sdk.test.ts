import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseSdkArgs, SdkUsageError } from "../../../cli/sdk/sdk-args";
import { sdkCommand, type SdkOutput, writeSdk } from "../../../cli/sdk/sdk-command";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-sdk-cmd-"));
  dirs.push(dir);
  return dir;
}

/** A package root like the installed package's: package.json and plugin/sdks/<language>/ files. */
function fakePackage(): string {
  const root = tempDir();
  fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "runpod-iac", version: "9.8.7" }));
  const py = path.join(root, "plugin", "sdks", "python", "pulumi_runpod_iac");
  fs.mkdirSync(py, { recursive: true });
  fs.writeFileSync(path.join(py, "__init__.py"), "VERSION = '9.8.7'\n");
  fs.writeFileSync(path.join(root, "plugin", "sdks", "python", "pyproject.toml"), "[project]\n");
  return root;
}

function capture(): SdkOutput & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    out: (text: string) => void (io.stdout += text),
    err: (text: string) => void (io.stderr += text),
  };
  return io;
}

describe("runpod-iac sdk: arguments", () => {
  it("reads the language and an --out resolved against the working directory", () => {
    expect(parseSdkArgs(["python", "--out", "sdk-py"], "/work/app")).toEqual({
      language: "python",
      out: "/work/app/sdk-py",
    });
    expect(parseSdkArgs(["--out=/abs/go", "go"], "/x")).toEqual({ language: "go", out: "/abs/go" });
    expect(parseSdkArgs(["--help"])).toBe("help");
  });

  it("refuses a missing or unknown language, a second one, a missing --out and unknown flags, naming each", () => {
    const mistake = (argv: string[]) => {
      try {
        parseSdkArgs(argv);
      } catch (error) {
        expect(error).toBeInstanceOf(SdkUsageError);
        return (error as Error).message;
      }
      throw new Error(`${argv.join(" ")} was accepted`);
    };
    expect(mistake(["--out", "x"])).toBe("a language is required: one of python, go");
    expect(mistake(["java", "--out", "x"])).toBe('language "java": must be one of python, go');
    expect(mistake(["python", "go", "--out", "x"])).toBe('unexpected argument "go": one language at a time');
    expect(mistake(["python"])).toBe("--out is required: the directory to write the SDK into");
    expect(mistake(["python", "--out", "x", "--force"])).toMatch(/--force/);
  });

  it("prints the usage with exit 2 on a mistake, and 0 on --help", async () => {
    const io = capture();
    expect(await sdkCommand(["ruby", "--out", "x"], io)).toBe(2);
    expect(io.stderr).toMatch(/^runpod-iac sdk: language "ruby": must be one of python, go\n\nUsage: runpod-iac sdk/);
    const help = capture();
    expect(await sdkCommand(["-h"], help)).toBe(0);
    expect(help.stdout).toContain("pip install DIR");
    expect(help.stdout).toContain("go mod edit -replace github.com/runpod-iac/runpod-iac/plugin/sdks/go=DIR");
  });
});

describe("runpod-iac sdk: writing", () => {
  it("copies the package's SDK into an absent directory and says how to use it", () => {
    const root = fakePackage();
    const out = path.join(tempDir(), "nested", "py");
    const io = capture();
    expect(writeSdk({ language: "python", out }, io, root)).toBe(0);
    expect(fs.readFileSync(path.join(out, "pulumi_runpod_iac", "__init__.py"), "utf8")).toBe("VERSION = '9.8.7'\n");
    expect(fs.existsSync(path.join(out, "pyproject.toml"))).toBe(true);
    expect(io.stdout).toBe(
      `Wrote the python SDK of runpod-iac v9.8.7 to ${out}\nInstall it into your project's environment:\n` +
        `  pip install ${out}\nthen: import pulumi_runpod_iac as runpod\n`,
    );
  });

  it("writes into an empty directory, and refuses one with files or a file, naming it and the rule", () => {
    const root = fakePackage();
    const empty = tempDir();
    expect(writeSdk({ language: "python", out: empty }, capture(), root)).toBe(0);
    const io = capture();
    expect(writeSdk({ language: "python", out: empty }, io, root)).toBe(1);
    expect(io.stderr).toBe(
      `runpod-iac sdk: --out ${empty}: holds pulumi_runpod_iac; must be a directory that is absent or empty\n`,
    );
    const file = path.join(tempDir(), "file");
    fs.writeFileSync(file, "");
    const io2 = capture();
    expect(writeSdk({ language: "python", out: file }, io2, root)).toBe(1);
    expect(io2.stderr).toContain(`--out ${file}: is a file`);
  });

  it("fails with the path when the package lacks the SDK", () => {
    const root = fakePackage();
    const io = capture();
    expect(writeSdk({ language: "go", out: path.join(tempDir(), "go") }, io, root)).toBe(1);
    expect(io.stderr).toContain(`the go SDK is missing from this package (${path.join(root, "plugin", "sdks", "go")})`);
  });
});
