import {
  argsFromWords,
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
import { type TemplateRecord, templateRecordOfV1Fields } from "./template-record";
import { renderTemplateV1 } from "./template-render";

/*
 * Template records as writes through either version leave them: v1's create and update
 * (`createTemplateRecord`, `updateTemplateRecord`: v1's fields applied to the template as v1 reads
 * it, then kept in v2's names), v2's (`createTemplateRecordV2`, `updateTemplateRecordV2`), and the
 * rules every record keeps (`templateProblems`).
 */

/** `containerRegistryAuthId: ""` means "no registry auth": the way a v1 update removes it. */
function withoutEmptyAuth(t: Template): Template {
  if (t.containerRegistryAuthId !== "") return t;
  const { containerRegistryAuthId: _removed, ...rest } = t;
  return rest;
}

/** v2's `args` as the record keeps them: the words the container gets, quoted back (one spelling of each command). */
function canonicalArgs(args: string): string {
  return argsFromWords(wordsFromArgs(args));
}

/**
 * A new template record from a v1 create body (OpenAPI v1 `TemplateCreateInput`): the input plus
 * the OpenAPI defaults (`TEMPLATE_DEFAULTS`); `isRunpod` is false for an account's own templates,
 * and `earned` and `runtimeInMin` start at 0.
 */
export function createTemplateRecord(input: TemplateCreateInput, id: string): TemplateRecord {
  const d = TEMPLATE_DEFAULTS;
  const v1: Template = {
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
  };
  return templateRecordOfV1Fields(withoutEmptyAuth(v1), {});
}

/** The record after a v1 update: every given field replaces the stored one whole (`env` included). */
export function updateTemplateRecord(current: TemplateRecord, input: TemplateUpdateInput): TemplateRecord {
  const { startSsh, startJupyter, allowedCudaVersions } = current;
  const v1 = withoutEmptyAuth({ ...renderTemplateV1(current), ...givenFields(input) });
  return templateRecordOfV1Fields(v1, {
    ...(startSsh === undefined ? {} : { startSsh }),
    ...(startJupyter === undefined ? {} : { startJupyter }),
    ...(allowedCudaVersions === undefined ? {} : { allowedCudaVersions }),
  });
}

/**
 * Rules that need the account's state, checked on the record as it would be stored: the name is
 * unique among the account's templates (OpenAPI: "The name needs to be unique") and the registry
 * credential, when one is set, is one of the account's (v1's route names it `containerRegistryAuthId`).
 */
export function templateProblems(
  t: TemplateRecord,
  account: { templates: RecordLookup<TemplateRecord>; containerRegistryAuths: RecordLookup<RegistryAuthRecord> },
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const taken = nameTakenProblem(account.templates.values(), t.name, t.id, "template");
  if (taken) problems.push(taken);
  if (t.registry !== undefined && !account.containerRegistryAuths.has(t.registry)) {
    problems.push({
      field: "registry",
      value: renderValue(t.registry),
      rule: "is not a registry credential of this account",
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
  return {
    id,
    name: body.name,
    image: body.image,
    args: canonicalArgs(body.args ?? ""),
    disk: body.disk ?? d.containerDiskInGb,
    mounts: {
      persistent: {
        size: body.mounts?.persistent?.size ?? 0,
        path: body.mounts?.persistent?.path ?? d.volumeMountPath,
      },
    },
    ports: [...(body.ports ?? d.ports)],
    env: injectPlatformEnv(body.env ?? {}, switches, sshKeys),
    ...(body.registry ? { registry: body.registry } : {}),
    serverless: body.serverless ?? false,
    public: body.public ?? false,
    category: body.category ?? d.category,
    startSsh: switches.startSsh,
    startJupyter: switches.startJupyter,
    allowedCudaVersions: [...(body.allowedCudaVersions ?? [])],
    v1: { dockerEntrypoint: [], readme: d.readme, isRunpod: false, earned: 0, runtimeInMin: 0 },
  };
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
  if (body.image !== undefined) next.image = body.image;
  if (body.args !== undefined) next.args = canonicalArgs(body.args);
  if (body.disk !== undefined) next.disk = body.disk;
  if (body.env !== undefined) next.env = { ...body.env };
  if (body.ports !== undefined) next.ports = [...body.ports];
  if (body.registry === null) delete next.registry;
  else if (body.registry !== undefined) next.registry = body.registry;
  if (body.mounts?.persistent) next.mounts = { persistent: { ...body.mounts.persistent } };
  if (body.category !== undefined) next.category = body.category;
  if (body.serverless !== undefined) next.serverless = body.serverless;
  if (body.public !== undefined) next.public = body.public;
  if (body.startSsh !== undefined) next.startSsh = body.startSsh;
  if (body.startJupyter !== undefined) next.startJupyter = body.startJupyter;
  if (body.allowedCudaVersions !== undefined) next.allowedCudaVersions = [...body.allowedCudaVersions];
  next.env = injectPlatformEnv(next.env, switchesTurnedOn(current, next), sshKeys);
  return next;
}
