// The worker the image `.../read-weights:<tag>` runs on the emulator (`npx runpod-iac emulator
// --handlers ./handlers`): it reads the model from the network volume, where the platform mounts it
// at /runpod-volume and the emulator names its folder in RUNPOD_VOLUME_PATH, and answers what it
// found. Your image's handler does the same with your framework.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";

export default async function readWeights({ env }) {
  const dir = path.join(env?.RUNPOD_VOLUME_PATH ?? "/runpod-volume", env?.MODEL_DIR ?? "models");
  const config = JSON.parse(await readFile(path.join(dir, "config.json"), "utf8"));
  const weights = await stat(path.join(dir, "model.bin"));
  return { model: config.name, layers: config.layers, weightBytes: weights.size, weightsHash: env?.WEIGHTS_HASH };
}
