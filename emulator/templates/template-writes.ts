import {
  type FieldProblem,
  renderValue,
  TEMPLATE_DEFAULTS,
  type Template,
  type TemplateCreateInput,
  type TemplateUpdateInput,
  wordsFromArgs,
} from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";
import type { RecordLookup } from "../records/collection";
import type { RegistryAuthRecord } from "../registry-auths/registry-auth-record";
import { injectPlatformEnv, switchesTurnedOn } from "../platform/injected-env";
import { givenFields, nameTakenProblem } from "../platform/record-rules";
import type { TemplateRecord } from "./template-record";

/*
 * Template records as writes through either version leave them: v1's create and update
 * (`createTemplateRecord`, `updateTemplateRecord`), v2's (`createTemplateRecordV2`,
 * `updateTemplateRecordV2`), and the rules every record keeps (`templateProblems`).
 */

/** `containerRegistryAuthId: ""` means "no registry auth": the way an update removes it. */
function withoutEmptyAuth(t: Template): Template {
  if (t.containerRegistryAuthId !== "") return t;
  const { containerRegistryAuthId: _removed, ...rest } = t;
  return rest;
}

/**
 * A new template record, as the platform answers it (OpenAPI `Template`): the input plus the
 * OpenAPI defaults (`TEMPLATE_DEFAULTS`); `isRunpod` is false for an account's own templates, and
 * `earned` and `runtimeInMin` start at 0.
 */
export function createTemplateRecord(input: TemplateCreateInput, id: string): Template {
  const d = TEMPLATE_DEFAULTS;
  return withoutEmptyAuth({
    id,
    name: input.name,
    imageName: input.imageName,
    category: d.category,
    containerDiskInGb: d.containerDiskInGb,
    volumeInGb: d.volumeInGb,
    volumeMountPath: d.volumeMountPath,
    isServerless: d.isServerless,
    isPublic: d.isPublic,
    env: { ...d.env },
    ports: [...d.ports],
    readme: d.readme,
    dockerEntrypoint: [...d.dockerEntrypoint],
    dockerStartCmd: [...d.dockerStartCmd],
    ...givenFields(input),
    isRunpod: false,
    earned: 0,
    runtimeInMin: 0,
  });
}

/** The record after an update: every given field replaces the stored one whole (`env` included). */
export function updateTemplateRecord(current: Template, input: TemplateUpdateInput): Template {
  return withoutEmptyAuth({ ...current, ...givenFields(input) });
}

/**
 * Rules that need the account's state, checked on the record as it would be stored: the name is
 * unique among the account's templates (OpenAPI: "The name needs to be unique") and the registry
 * auth, when one is set, is one of the account's.
 */
export function templateProblems(
  t: Template,
  account: { templates: RecordLookup<TemplateRecord>; containerRegistryAuths: RecordLookup<RegistryAuthRecord> },
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const taken = nameTakenProblem(account.templates.values(), t.name, t.id, "template");
  if (taken) problems.push(taken);
  const auth = t.containerRegistryAuthId;
  if (auth !== undefined && !account.containerRegistryAuths.has(auth)) {
    problems.push({
      field: "containerRegistryAuthId",
      value: renderValue(auth),
      rule: "is not a container registry auth of this account",
    });
  }
  return problems;
}

/**
 * A new record from a v2 create body: v2's defaults (NVIDIA, SSH and Jupyter on), no volume unless
 * a mount is given; the env the switches inject (`PUBLIC_KEY` from `sshKeys`, a generated
 * `JUPYTER_PASSWORD`) is added to the record's env, as the platform answers it.
 */
export function createTemplateRecordV2(
  body: V2.CreateTemplateRequest,
  id: string,
  sshKeys: readonly string[] = [],
): TemplateRecord {
  const d = TEMPLATE_DEFAULTS;
  const switches = { startSsh: body.startSsh ?? true, startJupyter: body.startJupyter ?? true };
  const record: TemplateRecord = {
    id,
    name: body.name,
    imageName: body.image,
    category: body.category ?? d.category,
    containerDiskInGb: body.disk ?? d.containerDiskInGb,
    volumeInGb: body.mounts?.persistent?.size ?? 0,
    volumeMountPath: body.mounts?.persistent?.path ?? d.volumeMountPath,
    isServerless: body.serverless ?? false,
    isPublic: body.public ?? false,
    env: injectPlatformEnv(body.env ?? {}, switches, sshKeys),
    ports: [...(body.ports ?? d.ports)],
    readme: d.readme,
    dockerEntrypoint: [],
    dockerStartCmd: wordsFromArgs(body.args ?? ""),
    startSsh: switches.startSsh,
    startJupyter: switches.startJupyter,
    allowedCudaVersions: [...(body.allowedCudaVersions ?? [])],
    isRunpod: false,
    earned: 0,
    runtimeInMin: 0,
  };
  if (body.registry) record.containerRegistryAuthId = body.registry;
  return record;
}

/**
 * The record after a v2 `PATCH`: given fields replace (`env` whole: what the platform injected is
 * kept only if the body sends it again); `mounts: {}` keeps the mount; `registry: null` takes it
 * off. A switch turned on injects its env.
 */
export function updateTemplateRecordV2(
  current: TemplateRecord,
  body: V2.UpdateTemplateRequest,
  sshKeys: readonly string[] = [],
): TemplateRecord {
  const next: TemplateRecord = { ...current };
  if (body.name !== undefined) next.name = body.name;
  if (body.image !== undefined) next.imageName = body.image;
  if (body.args !== undefined) next.dockerStartCmd = wordsFromArgs(body.args);
  if (body.disk !== undefined) next.containerDiskInGb = body.disk;
  if (body.env !== undefined) next.env = { ...body.env };
  if (body.ports !== undefined) next.ports = [...body.ports];
  if (body.registry === null) delete next.containerRegistryAuthId;
  else if (body.registry !== undefined) next.containerRegistryAuthId = body.registry;
  if (body.mounts?.persistent) {
    next.volumeInGb = body.mounts.persistent.size;
    next.volumeMountPath = body.mounts.persistent.path;
  }
  if (body.category !== undefined) next.category = body.category;
  if (body.serverless !== undefined) next.isServerless = body.serverless;
  if (body.public !== undefined) next.isPublic = body.public;
  if (body.startSsh !== undefined) next.startSsh = body.startSsh;
  if (body.startJupyter !== undefined) next.startJupyter = body.startJupyter;
  if (body.allowedCudaVersions !== undefined) next.allowedCudaVersions = [...body.allowedCudaVersions];
  next.env = injectPlatformEnv(next.env ?? {}, switchesTurnedOn(current, next), sshKeys);
  return next;
}
