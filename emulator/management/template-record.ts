import {
  type FieldProblem,
  renderValue,
  TEMPLATE_DEFAULTS,
  type Template,
  type TemplateCreateInput,
  type TemplateUpdateInput,
} from "../../sdk/schemas";
import type { Account } from "../store/account";
import { givenFields, nameTakenProblem } from "./record-rules";

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
export function templateProblems(t: Template, account: Account): FieldProblem[] {
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
