import { afterEach, describe, expect, it } from "vitest";
import {
  configureDirect,
  configureFromStack,
  optionsFromStack,
  providerS3Client,
  providerS3Settings,
  useConfigNamespace,
} from "../../../provider/provider-config";

const S3_VARS = ["RUNPOD_S3_ACCESS_KEY_ID", "RUNPOD_S3_SECRET_ACCESS_KEY", "RUNPOD_S3_URL"] as const;

describe("the provider's S3 settings (docs/configuration.md)", () => {
  const saved = Object.fromEntries(S3_VARS.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const name of S3_VARS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    useConfigNamespace("runpod");
    configureDirect({});
  });
  const clearEnv = () => S3_VARS.forEach((name) => delete process.env[name]);

  it("reads runpod:s3AccessKeyId, runpod:s3SecretAccessKey and runpod:s3Url from the stack config", () => {
    const config = new Map([
      ["runpod:s3AccessKeyId", "user_stack"],
      ["runpod:s3SecretAccessKey", "rps_stack"],
      ["runpod:s3Url", "http://127.0.0.1:8787/s3api-{dc}"],
    ]);
    expect(optionsFromStack(config)).toMatchObject({
      s3AccessKeyId: "user_stack",
      s3SecretAccessKey: "rps_stack",
      s3Url: "http://127.0.0.1:8787/s3api-{dc}",
    });
    clearEnv();
    configureFromStack(config);
    expect(providerS3Settings()).toMatchObject({ accessKeyId: "user_stack", url: "http://127.0.0.1:8787/s3api-{dc}" });
    expect(providerS3Client()).toBe(providerS3Client());
    expect(providerS3Client().endpointOf("EU-RO-1")).toBe("http://127.0.0.1:8787/s3api-eu-ro-1");
  });

  it("falls back to the environment", () => {
    process.env.RUNPOD_S3_ACCESS_KEY_ID = "user_env";
    process.env.RUNPOD_S3_SECRET_ACCESS_KEY = "rps_env";
    delete process.env.RUNPOD_S3_URL;
    configureDirect({});
    expect(providerS3Settings()).toMatchObject({ accessKeyId: "user_env", url: "https://s3api-{dc}.runpod.io" });
  });

  it("names the stack config key and the variable of each missing setting, for either face, never a value", () => {
    clearEnv();
    configureDirect({ s3SecretAccessKey: "rps_present_secret" });
    const missingId = () => providerS3Settings();
    expect(missingId).toThrow("set the stack config `runpod:s3AccessKeyId` or RUNPOD_S3_ACCESS_KEY_ID.");
    expect(missingId).not.toThrow(/rps_present_secret/);
    useConfigNamespace("runpod-iac");
    configureDirect({});
    expect(() => providerS3Settings()).toThrow(
      "set the stack config `runpod-iac:s3AccessKeyId` or RUNPOD_S3_ACCESS_KEY_ID, and the stack config `runpod-iac:s3SecretAccessKey` (as a secret) or RUNPOD_S3_SECRET_ACCESS_KEY",
    );
    configureDirect({ s3AccessKeyId: "u", s3SecretAccessKey: "s", s3Url: "not a url" });
    expect(() => providerS3Settings()).toThrow('runpod-iac:s3Url = "not a url" is not a valid URL');
  });
});
