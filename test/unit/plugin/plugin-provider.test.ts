import { afterEach, describe, expect, it, vi } from "vitest";
import { autoName } from "../../../provider/auto-name";
import * as impl from "../../../provider/impl";
import { configureDirect, useConfigNamespace } from "../../../provider/provider-config";
import { pluginProvider } from "../../../plugin/plugin-provider";
import { applyPluginConfig, engineAddressOf } from "../../../plugin/server";
import { typeOfUrn } from "../../../plugin/type-tokens";

const urn = (type: string, name: string, parent = "") =>
  `urn:pulumi:dev::proj::${parent ? `${parent}$` : ""}runpod-iac:index:${type}::${name}`;

describe("the plugin's provider", () => {
  const provider = pluginProvider("0.0.0-test");
  afterEach(() => {
    configureDirect({});
    useConfigNamespace("runpod");
  });

  it("names what a program leaves unnamed with the dynamic resources' auto-name, from the URN", async () => {
    const { inputs } = await provider.check!(
      urn("NetworkVolume", "models", "my:index:Component"),
      {},
      {
        size: 10,
        dataCenterId: "EU-RO-1",
      },
    );
    expect(inputs).toMatchObject({
      name: autoName("models", { project: "proj", stack: "dev", type: "NetworkVolume" }),
      __autoNamed: true,
    });
    const named = await provider.check!(
      urn("NetworkVolume", "models"),
      {},
      { name: "mine", size: 10, dataCenterId: "EU-RO-1" },
    );
    expect(named.inputs).toEqual({ name: "mine", size: 10, dataCenterId: "EU-RO-1" });
  });

  it("refuses at check with the dynamic resources' messages, naming the plugin's config key", async () => {
    useConfigNamespace("runpod-iac");
    applyPluginConfig({ apiUrl: "http://127.0.0.1:1/v1", apiKey: " " });
    const { failures } = await provider.check!(
      urn("NetworkVolume", "models"),
      {},
      {
        size: 10,
        dataCenterId: "EU-RO-1",
        type: "HIGH_PERFORMANCE",
      },
    );
    expect(failures).toEqual([
      {
        property: "type",
        reason:
          '"HIGH_PERFORMANCE": storage tiers (STANDARD, HIGH_PERFORMANCE) exist only on management API v2, and the API URL names v1: point runpod-iac:apiUrl (or RUNPOD_API_URL) at a .../v2 URL, or remove type',
      },
    ]);
  });

  it("names the plugin's config key and the variable when there is no API key; the dynamic resources name theirs", async () => {
    vi.stubEnv("RUNPOD_API_KEY", "");
    try {
      const create = () =>
        provider.create!(urn("NetworkVolume", "models"), { name: "m", size: 10, dataCenterId: "EU-RO-1" });
      useConfigNamespace("runpod-iac");
      applyPluginConfig({ apiUrl: "http://127.0.0.1:1/v2" });
      await expect(create()).rejects.toThrow(
        "No RunPod API key: set the stack config `runpod-iac:apiKey` (as a secret), or set RUNPOD_API_KEY",
      );
      // The dynamic resources' provider objects, unchanged: their users set `runpod:apiKey`.
      useConfigNamespace("runpod");
      await expect(impl.volume.create({ name: "m", size: 10, dataCenterId: "EU-RO-1" })).rejects.toThrow(
        "No RunPod API key: set the stack config `runpod:apiKey` (as a secret), or set RUNPOD_API_KEY",
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("marks the schema's secret inputs secret in check's answer (a registry password)", async () => {
    const { inputs } = await provider.check!(urn("ContainerRegistryAuth", "r"), {}, { username: "u", password: "p" });
    expect(inputs.password).toEqual({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value: "p",
    });
  });

  it("takes write-only inputs an imported credential's state never held as its own, and sees later changes", async () => {
    const imported = { name: "r" };
    const first = await provider.diff!("id", urn("ContainerRegistryAuth", "r"), imported, {
      name: "r",
      username: "bot",
      password: "p",
    });
    expect(first.changes).toBe(false);
    const recorded = { name: "r", username: "bot", password: "p" };
    const rotated = await provider.diff!("id", urn("ContainerRegistryAuth", "r"), recorded, {
      ...recorded,
      password: "q",
    });
    expect(rotated).toMatchObject({ changes: true, replaces: ["password"] });
  });

  it("takes an imported secret's value from the program without a rotation; a later change rotates it", async () => {
    const imported = { name: "HF_TOKEN" };
    const first = await provider.diff!("id", urn("Secret", "hf"), imported, { name: "HF_TOKEN", value: "v1" });
    expect(first.changes).toBe(false);
    const recorded = { name: "HF_TOKEN", value: "v1" };
    const rotated = await provider.diff!("id", urn("Secret", "hf"), recorded, { ...recorded, value: "v2" });
    expect(rotated.changes).toBe(true);
    expect(rotated.replaces ?? []).toEqual([]);
  });

  it("dispatches an invoke by token to the catalog function of that name, with the plugin's configuration", async () => {
    useConfigNamespace("runpod-iac");
    // Nothing is sent: bad arguments and v1 are refused before any request (the port is closed).
    applyPluginConfig({ apiUrl: "http://127.0.0.1:1/v2", apiKey: "k" });
    await expect(provider.invoke!("runpod-iac:index:getGpuTypes", { count: 0 })).rejects.toThrow(
      /getGpuTypes.*count.*0.*at least 1/s,
    );
    await expect(provider.invoke!("runpod-iac:index:getCpuFlavors", { vcpuCount: 3 })).rejects.toThrow(
      /getCpuFlavors.*vcpuCount.*power of two/s,
    );
    await expect(provider.invoke!("runpod-iac:index:getDataCenters", { nope: 1 })).rejects.toThrow(
      /nope.*is not an argument of getDataCenters/s,
    );
    applyPluginConfig({ apiUrl: "http://127.0.0.1:1/v1", apiKey: "k" });
    await expect(provider.invoke!("runpod-iac:index:getDataCenters", {})).rejects.toThrow(
      "management API v1 has no catalog (GET /v2/catalog/datacenters); point runpod-iac:apiUrl (or RUNPOD_API_URL) at a .../v2 URL",
    );
  });

  it("refuses an invoke of a function it does not have, naming the token", async () => {
    await expect(provider.invoke!("runpod-iac:index:getPods", {})).rejects.toThrow(
      "runpod-iac has no function runpod-iac:index:getPods",
    );
    await expect(provider.invoke!("aws:index:getGpuTypes", {})).rejects.toThrow(
      "runpod-iac has no function aws:index:getGpuTypes",
    );
  });

  it("refuses a URN of another package, naming it", async () => {
    await expect(provider.check!("urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b", {}, {})).rejects.toThrow(
      "runpod-iac has no resource type for urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b",
    );
    expect(typeOfUrn(urn("Pod", "p", "a:b:C"))).toBe("Pod");
    expect(typeOfUrn("urn:pulumi:dev::proj::runpod-iac:index:Nope::p")).toBe("Nope");
  });
});

describe("the plugin's process", () => {
  it("finds the engine's address after the logging and tracing flags the engine may pass first", () => {
    expect(engineAddressOf(["127.0.0.1:4000"])).toBe("127.0.0.1:4000");
    expect(engineAddressOf(["--logtostderr", "-v=9", "--tracing", "http://t", "127.0.0.1:4000"])).toBe(
      "127.0.0.1:4000",
    );
    expect(engineAddressOf([])).toBeUndefined();
  });
});
