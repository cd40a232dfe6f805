/*
 * How an env value refers to an account secret: the placeholder `{{ RUNPOD_SECRET_<name> }}`,
 * which the platform replaces with the secret's value when a pod or worker starts. Free of zod, so
 * the resources (which load no schema library) write references with the same code as the client
 * and the emulator read them.
 */

/** The placeholder an env value holds to refer to the secret `name`: `{{ RUNPOD_SECRET_<name> }}`. */
export function secretReference(name: string): string {
  return `{{ RUNPOD_SECRET_${name} }}`;
}

/**
 * A placeholder inside an env value (global: a value may hold several, or one within other text,
 * such as a connection string). The platform writes `{{ RUNPOD_SECRET_<name> }}`; the spaces
 * inside the braces are optional. Group 1 is the name.
 */
export const SECRET_PLACEHOLDER = /\{\{\s*RUNPOD_SECRET_([a-zA-Z_][a-zA-Z0-9_.\-/]*)\s*\}\}/g;

/** The secret names the placeholders of `text` refer to, in order, each once. */
export function secretNamesIn(text: string): string[] {
  return [...new Set([...text.matchAll(SECRET_PLACEHOLDER)].map((m) => m[1]!))];
}
