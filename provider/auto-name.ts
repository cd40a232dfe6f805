import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import type { RunpodResourceType } from "./runpod-resource";

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

/**
 * The naming inputs of a resource: the user's `name`, or the auto-name of this project, stack,
 * type and logical name plus `__autoNamed: true`, the mark that lets `create` look a lost create
 * up by name (only auto-names are unique enough to be adopted safely).
 */
export function namingInputs(
  logicalName: string,
  type: RunpodResourceType,
  name: pulumi.Input<string> | undefined,
): { name: pulumi.Input<string>; __autoNamed?: true } {
  if (name !== undefined) return { name };
  return {
    name: autoName(logicalName, { project: pulumi.getProject(), stack: pulumi.getStack(), type }),
    __autoNamed: true,
  };
}

/** Names the first `check` of a replacement chose, by auto-name, for the engine's second `check`. */
const replacementNames = new Map<string, string>();

/**
 * Names of resources that must be unique on the platform (templates, registry credentials).
 * Pulumi replaces create-before-delete, so the new resource needs a name the old one does not
 * hold: an auto-named resource that is being replaced takes the next name of its series
 * (`<auto-name>-<generation>`), and keeps its current name otherwise. The generation is read
 * from the current name, not drawn at random or stored apart, so it survives a refresh, and a
 * replacement killed after its create reached the platform computes the same name on the next
 * run and finds the resource by it (create-once.ts). `replaces(olds, news)` says whether the inputs
 * replace the resource; it is asked with the current name in `news`, since that name is this
 * function's to manage. Returns the inputs `check` hands on.
 *
 * The engine checks a resource it is about to replace twice: first with the state's inputs,
 * then with none (so that providers can pick a new name for the new resource), and creates it
 * with the second answer. Both calls reach this provider process in the same run, so the name
 * the first one chose is kept for the second.
 */
export function seriesName(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  replaces: (olds: Record<string, unknown>, news: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  const base = news.name;
  if (news.__autoNamed !== true || typeof base !== "string") return news;
  if (typeof olds.name !== "string") {
    const chosen = replacementNames.get(base);
    return chosen === undefined ? news : { ...news, name: chosen };
  }
  const replacing = replaces(olds, { ...news, name: olds.name });
  const suffix = olds.name.startsWith(`${base}-`) ? olds.name.slice(base.length + 1) : "";
  const previous = /^[1-9][0-9]{0,5}$/.test(suffix) ? Number(suffix) : 0;
  const generation = replacing ? previous + 1 : previous;
  const name = generation === 0 ? base : `${base}-${generation}`;
  if (replacing) replacementNames.set(base, name);
  else replacementNames.delete(base);
  return name === base ? news : { ...news, name };
}
