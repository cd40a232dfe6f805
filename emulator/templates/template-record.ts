import { z } from "zod";
import { TemplateSchema } from "../../sdk/schemas";

/**
 * What the emulator keeps of a template: the version-neutral answer's fields (v1's names; v2's
 * `startSsh`, `startJupyter` among them), plus v2's `allowedCudaVersions`. One record answers in
 * both dialects: v1's answer leaves out what v1 does not have. The container's command is kept
 * as v1's words (`dockerStartCmd`); v2's `args` string is read from and written to them
 * (sdk/schemas/container-args.ts).
 */
export const TemplateRecordSchema = TemplateSchema.extend({
  allowedCudaVersions: z.array(z.string()).optional(),
});
/** A stored template. */
export type TemplateRecord = z.infer<typeof TemplateRecordSchema>;
