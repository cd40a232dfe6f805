import { parseImageReference } from "../../sdk/schemas";

/**
 * The handler an image runs in the emulator (docs/emulator.md, "Templates and handlers"): the last segment of
 * the image's repository path, without tag or digest. `ghcr.io/acme/echo:1.0` runs `echo`,
 * `registry.example.com/team/upper@sha256:...` runs `upper`, and `localhost:5000/echo` runs `echo`.
 * The reference is read by the same parser as the policy pack's (sdk/schemas/image-reference.ts);
 * a text that is no image reference names no handler (undefined).
 */
export function handlerNameOfImage(imageName: string): string | undefined {
  const parsed = parseImageReference(imageName);
  return parsed.ok ? parsed.reference.path.slice(parsed.reference.path.lastIndexOf("/") + 1) : undefined;
}
