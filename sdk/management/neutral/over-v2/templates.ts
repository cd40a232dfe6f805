import { RequestValidationError } from "../../../errors";
import { validateForVersion } from "../../../request-validation";
import {
  argsFromWords,
  TEMPLATE_DEFAULTS,
  type Template,
  type TemplateCreateInput,
  TemplateCreateInputSchema,
  type TemplateUpdateInput,
  TemplateUpdateInputSchema,
  wordsFromArgs,
} from "../../../schemas";
import { V2_NEUTRAL_NAMES } from "../../../schemas/resource-fields";
import type * as V2 from "../../../schemas/v2";
import type { CallOptions } from "../../../transport";
import type { TemplateOperations } from "../api";
import type { TemplatesV2 } from "../../v2/templates";
import { renamedProblems } from "./neutral-fields";

const KIND = "template";

/** v2's field paths under the neutral names: `TemplateArgs`' `@wire` tags. */
const NEUTRAL_NAMES: Readonly<Record<string, string>> = V2_NEUTRAL_NAMES.template;

/** Copies the entries of `from` whose value is defined. */
function defined<T extends object>(from: T): Partial<T> {
  return Object.fromEntries(Object.entries(from).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The container's command as v2's `args`: `args` as given, or `dockerStartCmd`'s words quoted and joined. */
function argsOf(input: Pick<TemplateCreateInput, "args" | "dockerStartCmd">): string | undefined {
  if (input.args !== undefined) return input.args;
  return input.dockerStartCmd === undefined ? undefined : argsFromWords(input.dockerStartCmd);
}

/**
 * The v2 create body of a neutral create input. `volumeInGb` and `volumeMountPath` become v2's
 * persistent mount (a path alone gets v1's default size, a size alone v1's default path; `0` GB is
 * no mount); `dockerStartCmd` becomes `args` (see container-args.ts); `containerRegistryAuthId`
 * becomes `registry`. Fields left out take v2's defaults, which differ from v1's: no volume,
 * `startSsh` and `startJupyter` true.
 */
export function templateCreateToV2(input: TemplateCreateInput): V2.CreateTemplateRequest {
  const size = input.volumeInGb ?? (input.volumeMountPath !== undefined ? TEMPLATE_DEFAULTS.volumeInGb : undefined);
  const path = input.volumeMountPath ?? TEMPLATE_DEFAULTS.volumeMountPath;
  return {
    name: input.name,
    image: input.imageName,
    ...defined({
      disk: input.containerDiskInGb,
      mounts: size === undefined || size === 0 ? undefined : { persistent: { size, path } },
      args: argsOf(input),
      env: input.env,
      ports: input.ports,
      registry: input.containerRegistryAuthId || undefined,
      serverless: input.isServerless,
      public: input.isPublic,
      category: input.category,
      startSsh: input.startSsh,
      startJupyter: input.startJupyter,
    }),
  };
}

/**
 * The v2 update body of a neutral update input. A persistent mount is set whole on v2, so a new
 * size or path alone takes the other from `current` (the template as it is); v2 cannot take a
 * mount off (`volumeInGb: 0` on a template that has one is refused before sending).
 * `containerRegistryAuthId: ""` takes the registry off (`registry: null`).
 */
export function templateUpdateToV2(
  input: TemplateUpdateInput,
  current: V2.Template | undefined,
  context = "update template",
): V2.UpdateTemplateRequest {
  const body: V2.UpdateTemplateRequest = defined({
    name: input.name,
    image: input.imageName,
    disk: input.containerDiskInGb,
    args: argsOf(input),
    env: input.env,
    ports: input.ports,
    public: input.isPublic,
    startSsh: input.startSsh,
    startJupyter: input.startJupyter,
  });
  if (input.containerRegistryAuthId !== undefined) body.registry = input.containerRegistryAuthId || null;
  if (input.volumeInGb !== undefined || input.volumeMountPath !== undefined) {
    const now = current?.mounts?.persistent;
    const size = input.volumeInGb ?? now?.size ?? TEMPLATE_DEFAULTS.volumeInGb;
    const path = input.volumeMountPath ?? now?.path ?? TEMPLATE_DEFAULTS.volumeMountPath;
    if (size === 0 && now !== undefined) {
      throw new RequestValidationError(
        [
          {
            field: "volumeInGb",
            value: "0",
            rule: "management API v2 cannot take a template's volume off: create a new template instead",
          },
        ],
        context,
      );
    }
    if (size > 0) body.mounts = { persistent: { size, path } };
  }
  return body;
}

/**
 * A v2 template in the neutral shape: `args` is split into `dockerStartCmd`'s words (and kept as
 * `args`); `dockerEntrypoint` is `[]` (v2 runs the image's entrypoint); no mount reads as
 * `volumeInGb: 0`; `registry: null` as no `containerRegistryAuthId`. v1's `readme`, `isRunpod`,
 * `earned` and `runtimeInMin` have no v2 counterpart and stay undefined.
 */
export function templateFromV2(t: V2.Template): Template {
  const mount = t.mounts?.persistent;
  return defined({
    id: t.id,
    name: t.name,
    imageName: t.image,
    category: t.category,
    containerDiskInGb: t.disk,
    volumeInGb: mount?.size ?? 0,
    volumeMountPath: mount?.path,
    containerRegistryAuthId: t.registry ?? undefined,
    dockerEntrypoint: [],
    dockerStartCmd: t.args === undefined ? undefined : wordsFromArgs(t.args),
    args: t.args,
    env: t.env,
    ports: t.ports,
    isPublic: t.public,
    isServerless: t.serverless,
    startSsh: t.startSsh,
    startJupyter: t.startJupyter,
  }) as Template;
}

/**
 * The version-neutral template operations on management API v2, over `client.v2.templates`.
 * What v2 does not have is refused before sending (`readme`, a non-empty `dockerEntrypoint`:
 * `VERSION_ONLY_FIELDS.template`).
 */
export class NeutralTemplatesOverV2 implements TemplateOperations {
  constructor(private readonly v2: TemplatesV2) {}

  async create(input: TemplateCreateInput, options?: CallOptions): Promise<Template> {
    const valid = validateForVersion(TemplateCreateInputSchema, input, "create template", KIND, "v2");
    const body = templateCreateToV2(valid);
    return templateFromV2(await renamedProblems(NEUTRAL_NAMES, () => this.v2.create(body, options), "create template"));
  }

  async get(id: string, options?: CallOptions): Promise<Template> {
    return templateFromV2(await this.v2.get(id, options));
  }

  async list(options?: CallOptions): Promise<Template[]> {
    return (await this.v2.list(options)).map(templateFromV2);
  }

  async update(id: string, input: TemplateUpdateInput, options?: CallOptions): Promise<Template> {
    const context = `update template ${id}`;
    const valid = validateForVersion(TemplateUpdateInputSchema, input, context, KIND, "v2");
    const mountChange = valid.volumeInGb !== undefined || valid.volumeMountPath !== undefined;
    const current = mountChange ? await this.v2.get(id, options) : undefined;
    const body = templateUpdateToV2(valid, current, context);
    if (Object.keys(body).length === 0) return templateFromV2(current ?? (await this.v2.get(id, options)));
    return templateFromV2(await renamedProblems(NEUTRAL_NAMES, () => this.v2.update(id, body, options), context));
  }

  delete(id: string, options?: CallOptions): Promise<void> {
    return this.v2.delete(id, options);
  }
}
