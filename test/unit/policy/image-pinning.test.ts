import { describe, expect, it } from "vitest";
import { checkImagePinning, IMAGE_PINNING_POLICY, imagePinningPolicy } from "../../../policy/image-pinning";
import policyPackage from "../../../policy/package.json";
import { UNKNOWN } from "../../../policy/unknown-values";
import { runPolicies } from "./engine-harness";

const DIGEST = `sha256:${"0f".repeat(32)}`;
const PIN = "pin a version tag or a digest (image@sha256:<digest>)";
const dev = { stackName: "dev-ann", stackTags: new Map<string, string>() };
const check = (imageName: unknown, config = {}, context = undefined) =>
  checkImagePinning("worker", { imageName } as { imageName: string }, config, context);

describe("image pinning: tags and digests", () => {
  it.each([
    "ghcr.io/acme/worker:1.4.2",
    "ubuntu:22.04",
    "localhost:5000/x:1",
    `ghcr.io/acme/worker@${DIGEST}`,
    `ghcr.io/acme/worker:latest@${DIGEST}`,
    `ghcr.io/acme/worker:sha256-${"0f".repeat(32)}`,
    "ghcr.io/acme/worker:main",
  ])("accepts %s by default", (image) => {
    expect(check(image)).toEqual([]);
  });

  it("refuses an explicit latest", () => {
    expect(check("ghcr.io/acme/worker:latest")).toEqual([
      `Template "worker": imageName = "ghcr.io/acme/worker:latest": uses the mutable tag "latest"; ${PIN}`,
    ]);
  });

  it("refuses latest in any case", () => {
    expect(check("ghcr.io/acme/worker:LATEST")).toEqual([
      `Template "worker": imageName = "ghcr.io/acme/worker:LATEST": uses the mutable tag "LATEST"; ${PIN}`,
    ]);
  });

  it("refuses a reference without a tag, which means latest", () => {
    expect(check("ubuntu")).toEqual([
      `Template "worker": imageName = "ubuntu": has no tag, so it pulls the mutable "latest"; ${PIN}`,
    ]);
    expect(check("localhost:5000/x")).toEqual([
      `Template "worker": imageName = "localhost:5000/x": has no tag, so it pulls the mutable "latest"; ${PIN}`,
    ]);
  });

  it("refuses the configured mutable tags, whatever their case", () => {
    expect(check("ghcr.io/acme/worker:Stable", { mutableTags: ["main", "stable"] })).toEqual([
      `Template "worker": imageName = "ghcr.io/acme/worker:Stable": uses the mutable tag "Stable" (mutableTags); ${PIN}`,
    ]);
  });

  it("accepts mutable tags listed in allowedMutableTags, including latest and no tag", () => {
    const config = { mutableTags: ["main"], allowedMutableTags: ["latest", "main"] };
    expect(check("ghcr.io/acme/worker:latest", config)).toEqual([]);
    expect(check("ghcr.io/acme/worker", config)).toEqual([]);
    expect(check("ghcr.io/acme/worker:main", config)).toEqual([]);
  });

  it("applies per-stack settings and names the entry that set them", () => {
    const config = {
      mutableTags: ["main"],
      byStack: { "dev*": { allowedMutableTags: ["latest"], mutableTags: ["edge"] } },
    };
    expect(checkImagePinning("w", { imageName: "ghcr.io/acme/w:latest" }, config, dev)).toEqual([]);
    expect(checkImagePinning("w", { imageName: "ghcr.io/acme/w:main" }, config, dev)).toEqual([]);
    expect(checkImagePinning("w", { imageName: "ghcr.io/acme/w:edge" }, config, dev)).toEqual([
      `Template "w": imageName = "ghcr.io/acme/w:edge": uses the mutable tag "edge" (mutableTags from byStack "dev*" for stack "dev-ann"); ${PIN}`,
    ]);
  });

  it("with requireDigest, refuses any image without a digest and shows the pinned form", () => {
    expect(check("ghcr.io/acme/worker:1.4.2", { requireDigest: true })).toEqual([
      'Template "worker": imageName = "ghcr.io/acme/worker:1.4.2": has no digest (requireDigest); pin it as ghcr.io/acme/worker:1.4.2@sha256:<digest>',
    ]);
    expect(check("ubuntu", { requireDigest: true })).toEqual([
      'Template "worker": imageName = "ubuntu": has no digest (requireDigest); pin it as docker.io/library/ubuntu@sha256:<digest>',
    ]);
    expect(check(`ubuntu@${DIGEST}`, { requireDigest: true })).toEqual([]);
  });
});

describe("image pinning: registries", () => {
  const config = { allowedRegistries: ["ghcr.io/acme", "registry.acme.internal:5000"] };

  it.each(["ghcr.io/acme/worker:1", "registry.acme.internal:5000/ml/worker:2", `ghcr.io/acme/x@${DIGEST}`])(
    "accepts %s from an allowed registry",
    (image) => {
      expect(check(image, config)).toEqual([]);
    },
  );

  it("refuses other registries, naming the normalized repository, and still judges the tag", () => {
    expect(check("acme/worker", config)).toEqual([
      'Template "worker": imageName = "acme/worker": comes from docker.io/acme/worker, which is not under an allowed registry ["ghcr.io/acme","registry.acme.internal:5000"] (allowedRegistries)',
      `Template "worker": imageName = "acme/worker": has no tag, so it pulls the mutable "latest"; ${PIN}`,
    ]);
    expect(check("ghcr.io/acme-evil/worker:1", config)).toHaveLength(1);
  });
});

describe("image pinning: values that are not image references", () => {
  it.each([
    ["Acme/Worker:1", 'is not a valid image reference: it has the path segment "Worker"'],
    ["ghcr.io/acme/worker@sha256:1234", 'is not a valid image reference: it has the digest "sha256:1234"'],
    ["", "is not a valid image reference: it is empty"],
  ])("refuses %j", (image, rule) => {
    const [message] = check(image);
    expect(message).toContain(`Template "worker": imageName = ${JSON.stringify(image)}: ${rule}`);
    expect(message).toContain("(form: registry[:port]/path[:tag][@sha256:digest])");
  });

  it("refuses a missing or non-string imageName", () => {
    expect(check(undefined)).toEqual([
      'Template "worker": imageName = undefined: must be an image reference (the image the workers run)',
    ]);
    expect(check(42)).toHaveLength(1);
  });
});

describe("image pinning under the engine", () => {
  it("is mandatory by default and applies to templates only", async () => {
    expect(imagePinningPolicy.enforcementLevel).toBe("mandatory");
    const result = await runPolicies([imagePinningPolicy], {
      resources: [
        { type: "Template", name: "t", props: { imageName: "ghcr.io/acme/t:latest", env: { TOKEN: "s3cr3t" } } },
        { type: "ServerlessEndpoint", name: "e", props: { templateId: "x" } },
      ],
    });
    expect(result.mandatory).toEqual([
      {
        policy: IMAGE_PINNING_POLICY,
        message: `Template "t": imageName = "ghcr.io/acme/t:latest": uses the mutable tag "latest"; ${PIN}`,
      },
    ]);
  });

  it("reports, as advisory, that it can't run during preview when the image is not known yet", async () => {
    const result = await runPolicies([imagePinningPolicy], {
      resources: [{ type: "Template", name: "t", props: { imageName: UNKNOWN } }],
    });
    expect(result.mandatory).toEqual([]);
    expect(result.advisory).toEqual([
      {
        policy: IMAGE_PINNING_POLICY,
        message: `can't run policy 'runpod-image-pinning' from policy pack 'runpod@v${policyPackage.version}' during preview: string value at .imageName can't be known during preview`,
      },
    ]);
  });
});
