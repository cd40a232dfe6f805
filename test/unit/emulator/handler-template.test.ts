import { describe, expect, it } from "vitest";
import { TemplateSchema } from "../../../sdk/schemas";
import * as V2 from "../../../sdk/schemas/v2";
import { BUILTIN_TEMPLATES } from "../../../emulator/handlers/builtin-handlers";
import { handlerTemplateRecord } from "../../../emulator/templates/handler-template";
import { renderTemplateV1, renderTemplateV2 } from "../../../emulator/templates/template-render";

const echo = BUILTIN_TEMPLATES.find((t) => t.id === "echo")!;

describe("handlerTemplateRecord, the one template of an emulator handler (v1's list and v2's catalog)", () => {
  it("is an official, public serverless template whose image runs the handler", () => {
    expect(renderTemplateV1(handlerTemplateRecord("echo", echo))).toMatchObject({
      id: "echo",
      name: "echo",
      imageName: "runpod-iac-emulator/echo:latest",
      isServerless: true,
      isRunpod: true,
      isPublic: true,
      readme: "Emulator handler (built-in)",
    });
  });

  it("says where a handler comes from: built in, or a handler file", () => {
    const fromFile = { id: "resize", handler: () => null, source: "/handlers/resize.js" };
    expect(renderTemplateV1(handlerTemplateRecord("resize", fromFile)).readme).toBe("Emulator handler (handler file)");
  });

  it("marks an id the emulator has no handler for as neither the platform's nor public", () => {
    expect(renderTemplateV1(handlerTemplateRecord("gone", undefined))).toMatchObject({
      imageName: "runpod-iac-emulator/gone:latest",
      isRunpod: false,
      isPublic: false,
      readme: "unavailable",
    });
  });

  it("answers the same facts in both dialects, each valid against its version's schema", () => {
    const record = handlerTemplateRecord("echo", echo);
    const v1 = TemplateSchema.strict().parse(renderTemplateV1(record));
    const v2 = V2.TemplateSchema.parse(renderTemplateV2(record));
    expect(v2).toMatchObject({ id: v1.id, image: v1.imageName, serverless: v1.isServerless, public: v1.isPublic });
    // v1's answer keeps to v1's fields.
    expect(v1).not.toHaveProperty("startSsh");
    expect(v1).not.toHaveProperty("allowedCudaVersions");
  });
});
