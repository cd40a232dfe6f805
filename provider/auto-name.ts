import { createHash } from "node:crypto";

/** Length of the suffix that makes an auto-name unique. */
const SUFFIX_LENGTH = 7;

/**
 * The physical name of a resource whose `name` is not set: the logical name plus a suffix
 * derived from the project, stack, type and logical name. Like other providers' auto-names it
 * keeps resources of different stacks apart; unlike a random suffix it is the same in preview
 * and update and on every run, which lets a create whose answer was lost find its resource again.
 */
export function autoName(
  logicalName: string,
  scope: { project: string; stack: string; type: string },
  maxLength = 191,
): string {
  const digest = createHash("sha256")
    .update(`${scope.project}\0${scope.stack}\0${scope.type}\0${logicalName}`)
    .digest();
  let suffix = "";
  for (let i = 0; suffix.length < SUFFIX_LENGTH; i++) suffix += ((digest[i] ?? 0) % 36).toString(36);
  return `${logicalName.slice(0, maxLength - SUFFIX_LENGTH - 1)}-${suffix}`;
}
