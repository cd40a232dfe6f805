import { describe, expect, it } from "vitest";
import { parseImageReference, repositoryUnder } from "../../../sdk/schemas";

const DIGEST = `sha256:${"ab".repeat(32)}`;

describe("parsing an image reference", () => {
  it.each([
    ["ubuntu", "docker.io", "library/ubuntu", undefined, undefined],
    ["ubuntu:22.04", "docker.io", "library/ubuntu", "22.04", undefined],
    ["acme/app:1.2", "docker.io", "acme/app", "1.2", undefined],
    ["index.docker.io/acme/app:1", "docker.io", "acme/app", "1", undefined],
    ["ghcr.io/acme/worker:1.4.2", "ghcr.io", "acme/worker", "1.4.2", undefined],
    ["GHCR.IO/acme/worker:1", "ghcr.io", "acme/worker", "1", undefined],
    ["localhost:5000/x:1", "localhost:5000", "x", "1", undefined],
    ["localhost/x", "localhost", "x", undefined, undefined],
    ["registry.acme.internal:5000/ml/worker", "registry.acme.internal:5000", "ml/worker", undefined, undefined],
    ["[::1]:5000/x:2", "[::1]:5000", "x", "2", undefined],
    [`ghcr.io/acme/worker@${DIGEST}`, "ghcr.io", "acme/worker", undefined, DIGEST],
    [`ghcr.io/acme/worker:latest@${DIGEST}`, "ghcr.io", "acme/worker", "latest", DIGEST],
    [
      `ghcr.io/acme/worker:sha256-${"ab".repeat(32)}.sig`,
      "ghcr.io",
      "acme/worker",
      `sha256-${"ab".repeat(32)}.sig`,
      undefined,
    ],
    ["ghcr.io/acme/my_app__x-y.z:V1_RC", "ghcr.io", "acme/my_app__x-y.z", "V1_RC", undefined],
    ["x:5000", "docker.io", "library/x", "5000", undefined],
  ])("reads %s", (text, registry, path, tag, digest) => {
    expect(parseImageReference(text)).toEqual({
      ok: true,
      reference: { registry, path, repository: `${registry}/${path}`, tag, digest },
    });
  });

  it.each([
    ["", "is empty"],
    [" ubuntu", "has leading or trailing whitespace"],
    ["Ubuntu:1", 'has the path segment "Ubuntu"'],
    ["ghcr.io/Acme/worker:1", 'has the path segment "Acme"'],
    ["ghcr.io/acme/worker:-1", 'has the tag "-1"'],
    [`ghcr.io/acme/worker:${"a".repeat(129)}`, "has the tag"],
    ["ghcr.io/acme/worker@sha256:abc", 'has the digest "sha256:abc", whose sha256 part'],
    [`ghcr.io/acme/worker@sha256:${"AB".repeat(32)}`, "whose sha256 part is not lowercase hex"],
    [`ghcr.io/acme/worker@md5:${"ab".repeat(16)}`, 'has the digest "md5:'],
    ["ghcr.io/acme/worker@", 'has the digest ""'],
    ["repo:sha256:abc", 'has the path segment "repo:sha256"'],
    ["localhost:port/x", 'names the registry "localhost:port"'],
    ["ghcr.io//worker", 'has the path segment ""'],
    [`ghcr.io/${"a".repeat(260)}`, "longer than 255"],
  ])("refuses %j: it %s", (text, problem) => {
    const parsed = parseImageReference(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.problem).toContain(problem);
  });
});

describe("an allowed registry prefix", () => {
  it.each([
    ["ghcr.io/acme/worker", "ghcr.io/acme", true],
    ["ghcr.io/acme", "ghcr.io/acme", true],
    ["ghcr.io/acme-evil/worker", "ghcr.io/acme", false],
    ["ghcr.io/acme/worker", "ghcr.io", true],
    ["ghcr.io/acme/worker", "GHCR.io/acme", true],
    ["ghcr.io/acme/worker", "ghcr.io/ACME", false],
    ["ghcr.io/acme-tools/worker", "ghcr.io/acme-", false],
    ["ghcr.io/acme/worker", "ghcr.io/", true],
    ["registry.acme.internal:5000/ml/worker", "registry.acme.internal:5000", true],
    ["registry.acme.internal:5001/ml/worker", "registry.acme.internal:5000", false],
    ["docker.io/library/ubuntu", "docker.io/library", true],
    ["docker.io/library/ubuntu", "ubuntu", false],
    ["ghcr.io/acme/worker", "", false],
  ])("%s under %j: %s", (repository, prefix, expected) => {
    expect(repositoryUnder(repository, prefix)).toBe(expected);
  });
});
