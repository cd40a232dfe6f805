import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  answerDetailedDiff,
  closeServiceGaps,
  configOfRequest,
  oldInputs,
  type PluginConfig,
  SECRET_SIG,
  secretValue,
  withDefinedResults,
  withoutSecretEnvelopes,
  withoutUndefined,
} from "../../../plugin/server-gaps";

// The protobuf messages of @pulumi/pulumi's provider protocol, as the server and the engine use them.
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));
const pb = fromPulumi("./proto/provider_pb") as Record<string, new () => Record<string, (...a: unknown[]) => unknown>>;
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb") as {
  Struct: { new (): unknown; fromJavaScript(v: unknown): unknown };
};
const messages = { ConfigureResponse: pb.ConfigureResponse!, Struct } as never;

const SIG = "4dabf18193072939515e22adb298388d";
const secret = (value: unknown) => ({ [SIG]: SECRET_SIG, value });

type Handler = (c: unknown, cb: (e: unknown, v: unknown) => void) => unknown;

/** Calls a unary handler as gRPC would; resolves to [error, response]. */
function call(handler: Handler | undefined, request: unknown) {
  return new Promise<[unknown, unknown]>((resolve) => {
    void handler!({ request }, (e, v) => resolve([e, v]));
  });
}

describe("the provider server's gaps", () => {
  it("configure: reads the request's arguments, secrets opened, over the older variables", () => {
    const req = new pb.ConfigureRequest!();
    (req.getVariablesMap!() as { set(k: string, v: string): void }).set("runpod-iac:config:queueUrl", "http://q/v2");
    req.setArgs!(Struct.fromJavaScript({ apiKey: secret("rpa_KEY"), apiUrl: "http://127.0.0.1:1/v1", version: null }));
    expect(configOfRequest(req as never)).toEqual({
      apiKey: "rpa_KEY",
      apiUrl: "http://127.0.0.1:1/v1",
      queueUrl: "http://q/v2",
    });
  });

  it("configure: answers itself, handing over the configuration and declaring that secrets are not accepted", async () => {
    const seen: PluginConfig[] = [];
    const server = { configure: () => expect.unreachable("the server's own configure ignores the request") } as never;
    const closed = closeServiceGaps(server, (c) => seen.push(c), messages) as Record<string, Handler>;
    const req = new pb.ConfigureRequest!();
    req.setArgs!(Struct.fromJavaScript({ apiKey: secret("rpa_KEY") }));
    const [error, response] = await call(closed.configure, req);
    expect(error).toBeNull();
    const r = response as Record<string, () => boolean>;
    // The engine then sends plain values and marks secret what came from a secret (annotateSecrets).
    expect([r.getAcceptsecrets!(), r.getAcceptresources!(), r.getAcceptoutputs!(), r.getSupportspreview!()]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(seen).toEqual([{ apiKey: "rpa_KEY" }]);
  });

  it("configure: a configuration the plugin refuses fails the request with the reason", async () => {
    const closed = closeServiceGaps(
      {} as never,
      () => {
        throw new Error("apiUrl must end in /v1 or /v2");
      },
      messages,
    ) as Record<string, Handler>;
    const [error] = await call(closed.configure, new pb.ConfigureRequest!());
    expect((error as Error).message).toBe("apiUrl must end in /v1 or /v2");
  });

  it("read: an import's Read without properties reaches the server with an empty struct, and the old inputs at hand", async () => {
    const seen: unknown[] = [];
    const server = {
      read(c: { request: { getProperties(): { toJavaScript(): unknown } } }, cb: (e: unknown, v: unknown) => void) {
        // What the server does first: it throws on a request without properties.
        seen.push(c.request.getProperties().toJavaScript(), oldInputs());
        cb(null, "ok");
      },
    };
    const closed = closeServiceGaps(server as never, () => undefined, messages) as Record<string, Handler>;
    const importing = new pb.ReadRequest!();
    expect(importing.getProperties!()).toBeUndefined();
    expect(await call(closed.read, importing)).toEqual([null, "ok"]);
    const refreshing = new pb.ReadRequest!();
    refreshing.setProperties!(Struct.fromJavaScript({ name: "n" }));
    refreshing.setInputs!(Struct.fromJavaScript({ name: "n", password: "p" }));
    await call(closed.read, refreshing);
    expect(seen).toEqual([{}, undefined, { name: "n" }, { name: "n", password: "p" }]);
  });

  it("diff: the server's diff runs with the request's old inputs at hand, and only during that request", async () => {
    let during: unknown;
    const server = {
      async diff(_c: unknown, cb: (e: unknown, v: unknown) => void) {
        await new Promise((r) => setTimeout(r, 5));
        during = oldInputs();
        cb(null, "ok");
      },
    };
    const closed = closeServiceGaps(server as never, () => undefined, messages) as Record<string, Handler>;
    const req = new pb.DiffRequest!();
    req.setOldInputs!(Struct.fromJavaScript({ username: "bot" }));
    await call(closed.diff, req);
    expect(during).toEqual({ username: "bot" });
    expect(oldInputs()).toBeUndefined();
  });

  it("diff: a detailed diff the provider answers with reaches the engine's response, and only that diff's", async () => {
    const server = {
      async diff(_c: unknown, cb: (e: unknown, v: unknown) => void) {
        await new Promise((r) => setTimeout(r, 5));
        answerDetailedDiff({ files: { kind: "update" }, prefix: { kind: "update-replace" } });
        const response = new pb.DiffResponse!();
        response.setChanges!(2);
        cb(null, response);
      },
    };
    const withDiff = { ...(messages as object), PropertyDiff: pb.PropertyDiff } as never;
    const closed = closeServiceGaps(server as never, () => undefined, withDiff) as Record<string, Handler>;
    const [error, response] = await call(closed.diff, new pb.DiffRequest!());
    expect(error).toBeNull();
    const r = response as { toObject(): Record<string, unknown> };
    expect(r.toObject()).toMatchObject({
      hasdetaileddiff: true,
      detaileddiffMap: [
        ["files", { kind: 4, inputdiff: true }],
        ["prefix", { kind: 5, inputdiff: true }],
      ],
    });
    // A diff that answers none leaves the response as the server made it.
    const plain = closeServiceGaps(
      {
        diff: (_c: unknown, cb: (e: unknown, v: unknown) => void) => cb(null, new pb.DiffResponse!()),
      } as never,
      () => undefined,
      withDiff,
    ) as Record<string, Handler>;
    const [, untouched] = await call(plain.diff, new pb.DiffRequest!());
    expect((untouched as { toObject(): Record<string, unknown> }).toObject()).toMatchObject({
      hasdetaileddiff: false,
      detaileddiffMap: [],
    });
  });

  it("results: undefined is dropped from objects and is null in arrays, at any depth", async () => {
    expect(withoutUndefined({ a: 1, b: undefined, c: { d: undefined, e: [1, undefined] } })).toEqual({
      a: 1,
      c: { e: [1, null] },
    });
    const provider = withDefinedResults({
      create: async () => ({ id: "x", outs: { url: "u", publicIp: undefined } }),
      update: async () => {
        throw Object.assign(new Error("partial"), { id: "x", properties: { a: undefined, b: 2 } });
      },
    });
    expect(await provider.create!("urn", {})).toEqual({ id: "x", outs: { url: "u" } });
    await expect(provider.update!("x", "urn", {}, {})).rejects.toMatchObject({ properties: { b: 2 } });
    // Struct.fromJavaScript, what the server encodes results with, refuses undefined.
    expect(() => Struct.fromJavaScript({ publicIp: undefined })).toThrow();
    expect(() => Struct.fromJavaScript(withoutUndefined({ publicIp: undefined }))).not.toThrow();
  });

  it("secrets: a value is wrapped once, and envelopes are opened at any depth", () => {
    expect(secretValue("p")).toEqual(secret("p"));
    expect(secretValue(secretValue("p"))).toEqual(secret("p"));
    expect(withoutSecretEnvelopes({ env: { A: secret("x") }, list: [secret(1)] })).toEqual({
      env: { A: "x" },
      list: [1],
    });
  });
});
