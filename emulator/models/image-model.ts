import { createHash } from "node:crypto";
import { z } from "zod";
import { describeProblems, fieldProblems } from "../../sdk/schemas";
import type { JobContext, Template } from "../handlers/handler-types";
import { randomId } from "../records/ids";
import { encodePng } from "./png";

/** Pre-deployed image models the emulator serves at `POST /v2/<model_id>/runsync` (docs/platform.md "Pre-deployed models"). */
export const IMAGE_MODEL_IDS = ["sdxl-turbo"] as const;

/** Image side bounds of the emulator's image model, in pixels. */
export const IMAGE_SIDE = { min: 64, max: 2048, default: 512 } as const;

const side = z
  .number()
  .int("must be a whole number of pixels")
  .min(IMAGE_SIDE.min, `must be at least ${IMAGE_SIDE.min}`)
  .max(IMAGE_SIDE.max, `must be at most ${IMAGE_SIDE.max}`)
  .default(IMAGE_SIDE.default);

/** `input` of an image model job: `prompt`, `width`, `height` (documented), plus an optional `seed`. */
const ImageInputSchema = z.object({
  prompt: z.string().min(1, "must not be empty").max(10_000, "must be at most 10000 characters"),
  width: side,
  height: side,
  seed: z
    .number()
    .int("must be a whole number")
    .min(0, "must be at least 0")
    .max(2 ** 31 - 1)
    .optional(),
});

interface ImageParams {
  width: number;
  height: number;
  seed: number;
}

/** Keeps the parameters of generated images (not the pixels) and renders them as PNG on request. */
export class ImageStore {
  private readonly images = new Map<string, ImageParams>();

  constructor(private readonly capacity = 10_000) {}

  add(params: ImageParams): string {
    const id = randomId(20);
    this.images.set(id, params);
    if (this.images.size > this.capacity) this.images.delete(this.images.keys().next().value!);
    return id;
  }

  /** The PNG of image `id`, or undefined when unknown or evicted. */
  render(id: string): Buffer | undefined {
    const p = this.images.get(id);
    if (!p) return undefined;
    const s = p.seed;
    const [r1, g1, b1] = [s & 0xff, (s >> 8) & 0xff, (s >> 16) & 0xff];
    const [r2, g2, b2] = [255 - g1, 255 - b1, 255 - r1];
    const rings = 4 + (s % 12);
    const cx = p.width / 2;
    const cy = p.height / 2;
    const span = p.width + p.height;
    return encodePng(p.width, p.height, (x, y) => {
      const t = (x + y) / span;
      const ring = Math.floor((Math.hypot(x - cx, y - cy) / Math.max(cx, cy)) * rings) % 2;
      const k = ring ? t : 1 - t;
      const r = Math.round(r1 + (r2 - r1) * k);
      const g = Math.round(g1 + (g2 - g1) * k);
      const b = Math.round(b1 + (b2 - b1) * k);
      return (r << 16) | (g << 8) | b;
    });
  }
}

function seedOf(prompt: string): number {
  return createHash("sha256").update(prompt).digest().readUInt32BE(0) & 0x7fffffff;
}

/**
 * The handler of an image model: validates `prompt`, `width` and `height` (a bad input fails the
 * job, as a worker's input validation would), then answers `output.image_url`, a PNG the emulator
 * serves without authentication at `/_emulator/images/<id>.png`.
 */
export function imageModelTemplate(modelId: string, images: ImageStore, baseUrl: () => string): Template {
  const handler = async ({ input }: JobContext) => {
    const parsed = ImageInputSchema.safeParse(input);
    if (!parsed.success) throw new Error(describeProblems(fieldProblems(parsed.error, input)));
    const { prompt, width, height } = parsed.data;
    const seed = parsed.data.seed ?? seedOf(prompt);
    const id = images.add({ width, height, seed });
    return { image_url: `${baseUrl()}/_emulator/images/${id}.png`, width, height, seed };
  };
  return { id: modelId, handler, source: "builtin" };
}
