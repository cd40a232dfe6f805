import type { Template } from "../handlers/handler-types";
import type { TemplateRecord } from "./template-record";

/**
 * A handler of the emulator as the platform's own template: what `GET /v1/templates?
 * includeRunpodTemplates=true` and v2's official catalog (`GET /v2/catalog/templates`) list, and
 * what an endpoint naming the handler as its `templateId` shows (`includeTemplate=true`). One
 * record, answered in either dialect by template-render.ts.
 *
 * It is an official template, so `isRunpod` is true, and `isPublic` is true as for every
 * template of the public catalog: any user may use it (the OpenAPI's meaning of `isPublic`; v2
 * lists these templates in its public catalog). `handler` is undefined for an id the emulator has
 * no handler for (an endpoint created with a handler file that is no longer loaded): that
 * template is neither the platform's nor public, and its readme says it is unavailable.
 */
export function handlerTemplateRecord(id: string, handler: Template | undefined): TemplateRecord {
  return {
    id,
    name: id,
    // A template of one's own naming this image runs the same handler (image-handler.ts).
    image: `runpod-iac-emulator/${id}:latest`,
    args: "",
    disk: 5,
    mounts: { persistent: { size: 0, path: "/runpod-volume" } },
    ports: [],
    env: {},
    serverless: true,
    public: handler !== undefined,
    category: "CPU",
    startSsh: false,
    startJupyter: false,
    allowedCudaVersions: [],
    v1: {
      dockerEntrypoint: [],
      readme: handler
        ? `Emulator handler (${handler.source === "builtin" ? "built-in" : "handler file"})`
        : "unavailable",
      isRunpod: handler !== undefined,
      // As every template reads: the platform's usage counters, at 0.
      earned: 0,
      runtimeInMin: 0,
    },
  };
}
