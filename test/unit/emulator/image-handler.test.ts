import { describe, expect, it } from "vitest";
import { handlerNameOfImage } from "../../../emulator/handlers/image-handler";

describe("the handler an image names (its last path segment without tag or digest)", () => {
  it.each([
    ["echo", "echo"],
    ["echo:latest", "echo"],
    ["ghcr.io/acme/echo:1.0", "echo"],
    ["docker.io/library/sleep", "sleep"],
    [`registry.example.com/team/upper@sha256:${"0f".repeat(32)}`, "upper"],
    [`registry.example.com/team/upper:1.2@sha256:${"0f".repeat(32)}`, "upper"],
    ["localhost:5000/stream", "stream"],
    ["localhost:5000/team/stream:v2", "stream"],
  ])("reads %s as %j", (image, handler) => {
    expect(handlerNameOfImage(image)).toBe(handler);
  });
});

describe("a text that is no image reference", () => {
  it.each(["ghcr.io/acme/", "ghcr.io/acme/Echo:1", "echo:", "ghcr.io/acme/echo@sha256:short"])(
    "names no handler: %j",
    (image) => {
      expect(handlerNameOfImage(image)).toBeUndefined();
    },
  );
});
