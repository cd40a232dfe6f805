import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RequestValidationError } from "../../../sdk";
import {
  argsFromWords,
  GpuCatalogCache,
  neutralField,
  registryAuthCreateToV2,
  registryAuthFromV2,
  templateCreateToV2,
  templateFromV2,
  templateUpdateToV2,
  versionFieldProblems,
  wordsFromArgs,
} from "../../../sdk/internal";

describe("container command: v1's words and v2's args string", () => {
  it("quotes only the words that need it, and splits a hand-written string as a shell splits words", () => {
    expect(argsFromWords(["python", "-m", "server", "--port=8000"])).toBe("python -m server --port=8000");
    expect(argsFromWords(["echo", "two words", "it's", ""])).toBe(`echo 'two words' 'it'\\''s' ''`);
    expect(wordsFromArgs(`  run  "a \\"b\\" c" 'd e'  f\\ g $HOME `)).toEqual([
      "run",
      'a "b" c',
      "d e",
      "f g",
      "$HOME",
    ]);
    expect(wordsFromArgs("")).toEqual([]);
    expect(wordsFromArgs("'unclosed rest")).toEqual(["unclosed rest"]);
  });

  it("gives back every list of words it joined", () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (words) => {
        expect(wordsFromArgs(argsFromWords(words))).toEqual(words);
      }),
    );
  });
});

describe("templates between the neutral shape and v2's", () => {
  it("translates a create: image, disk, mount, args, registry, flags", () => {
    expect(
      templateCreateToV2({
        name: "t",
        imageName: "img:1",
        containerDiskInGb: 30,
        volumeInGb: 40,
        volumeMountPath: "/data",
        dockerStartCmd: ["serve", "my model"],
        containerRegistryAuthId: "reg",
        isServerless: true,
        isPublic: false,
        category: "CPU",
        env: { A: "1" },
        ports: ["80/http"],
        startSsh: false,
      }),
    ).toEqual({
      name: "t",
      image: "img:1",
      disk: 30,
      mounts: { persistent: { size: 40, path: "/data" } },
      args: "serve 'my model'",
      registry: "reg",
      serverless: true,
      public: false,
      category: "CPU",
      env: { A: "1" },
      ports: ["80/http"],
      startSsh: false,
    });
  });

  it("fills a mount's other half with v1's defaults, sends none for 0 GB, and takes args as given", () => {
    expect(templateCreateToV2({ name: "t", imageName: "i", volumeMountPath: "/w" }).mounts).toEqual({
      persistent: { size: 20, path: "/w" },
    });
    expect(templateCreateToV2({ name: "t", imageName: "i", volumeInGb: 0 }).mounts).toBeUndefined();
    expect(templateCreateToV2({ name: "t", imageName: "i", args: "raw $ARGS" }).args).toBe("raw $ARGS");
    expect(templateCreateToV2({ name: "t", imageName: "i", containerRegistryAuthId: "" }).registry).toBeUndefined();
  });

  it("updates a mount whole from the current one, takes a registry off, and refuses taking a volume off", () => {
    const current = { id: "t", name: "t", image: "i", mounts: { persistent: { size: 50, path: "/workspace" } } };
    expect(templateUpdateToV2({ volumeMountPath: "/data", containerRegistryAuthId: "" }, current)).toEqual({
      mounts: { persistent: { size: 50, path: "/data" } },
      registry: null,
    });
    expect(() => templateUpdateToV2({ volumeInGb: 0 }, current)).toThrow(RequestValidationError);
    expect(templateUpdateToV2({ volumeInGb: 0 }, { ...current, mounts: {} })).toEqual({});
  });

  it("reads a v2 template in v1's names, its args as words, no mount as 0 GB", () => {
    expect(
      templateFromV2({
        id: "t",
        name: "n",
        image: "i",
        args: "a 'b c'",
        disk: 10,
        mounts: {},
        ports: [],
        env: {},
        registry: null,
        serverless: true,
        public: true,
        category: "AMD",
        startSsh: true,
        startJupyter: false,
        allowedCudaVersions: [],
      }),
    ).toEqual({
      id: "t",
      name: "n",
      imageName: "i",
      category: "AMD",
      containerDiskInGb: 10,
      volumeInGb: 0,
      dockerEntrypoint: [],
      dockerStartCmd: ["a", "b c"],
      args: "a 'b c'",
      env: {},
      ports: [],
      isPublic: true,
      isServerless: true,
      startSsh: true,
      startJupyter: false,
    });
  });

  it("keeps registry credentials' three fields and reads back id and name", () => {
    expect(registryAuthCreateToV2({ name: "n", username: "u", password: "p" })).toEqual({
      name: "n",
      username: "u",
      password: "p",
    });
    expect(registryAuthFromV2({ id: "r", name: "n" })).toEqual({ id: "r", name: "n" });
  });
});

describe("inputs only one version has (endpoints and templates)", () => {
  it("refuses v2's values on v1 and v1's on v2, accepting the values that mean 'not used'", () => {
    expect(versionFieldProblems("endpoint", "v1", { type: "QUEUE", flashboot: "FLASHBOOT" })).toEqual([]);
    expect(
      versionFieldProblems("endpoint", "v1", { type: "LOAD_BALANCER", gpuPools: ["A"] }).map((p) => p.field),
    ).toEqual(["type", "gpuPools"]);
    expect(versionFieldProblems("template", "v2", { readme: "", dockerEntrypoint: [] })).toEqual([]);
    expect(versionFieldProblems("template", "v2", { dockerEntrypoint: ["bash"] })).toEqual([
      {
        field: "dockerEntrypoint",
        // A command line may hold a credential: its shape, never its text.
        value: "(a list of 1)",
        rule: expect.stringMatching(
          /^entrypoint overrides .* exist only on management API v1, and the API URL names v2/,
        ),
      },
    ]);
  });

  it("renames v2's field paths in errors to the neutral names", () => {
    const names = { "workers.min": "workersMin", "gpu.pools": "gpuPools", "cpu.*.vcpuCount": "vcpuCount" };
    expect(neutralField("workers.min", names)).toBe("workersMin");
    expect(neutralField("gpu.pools.1", names)).toBe("gpuPools.1");
    expect(neutralField("cpu.0.vcpuCount", names)).toBe("vcpuCount");
    expect(neutralField("name", names)).toBe("name");
  });
});

describe("GpuCatalogCache", () => {
  it("reads the catalog once per period, shares a read in flight, and does not keep a failed read", async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const cache = new GpuCatalogCache(
      async () => {
        reads++;
        if (fail) throw new Error("catalog down");
        return [{ id: "A", pool: "P" }];
      },
      1000,
      () => now,
    );
    await Promise.all([cache.get(), cache.get()]);
    expect(reads).toBe(1);
    now = 999;
    await cache.get();
    expect(reads).toBe(1);
    now = 1000;
    fail = true;
    await expect(cache.get()).rejects.toThrow("catalog down");
    fail = false;
    expect(await cache.get()).toEqual([{ id: "A", pool: "P" }]);
    expect(reads).toBe(3);
  });
});
