import { afterAll, describe, expect, it } from "vitest";
import * as impl from "../../../provider/impl";
import { configureDirect } from "../../../provider/provider-config";
import { type DocumentedBound, requestBounds } from "./openapi-request-bounds";
import { BOUND_CASES, type BoundCase, type BoundEntry, type Props, type Resource } from "./openapi-bound-cases";

/**
 * Every bound the two OpenAPI documents state on the create and update requests of the resources
 * (`minimum`, `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`, ...), walked from the
 * documents themselves, is refused at preview by the resource's `check` on that version, naming the
 * field (the property), the value (the engine prints the input's value next to the property) and
 * the rule; the value at the bound passes. A bound a document gains without a case in
 * openapi-bound-cases.ts fails here, as does a case whose bound the documents no longer state.
 */

const URLS = { v1: "https://rest.runpod.io/v1", v2: "https://api.runpod.io/v2" } as const;

const PROVIDERS: Record<Resource, { check(olds: Props, news: Props): Promise<{ inputs: Props; failures: unknown }> }> =
  {
    NetworkVolume: impl.volume,
    ServerlessEndpoint: impl.endpoint,
    Template: impl.template,
    ContainerRegistryAuth: impl.registryAuth,
    Pod: impl.pod,
    Cluster: impl.cluster,
  };

type Failure = { property: string; reason: string };

/** The inputs of a case: the group's base, the case's other inputs, then the value (undefined removes a key). */
function inputsOf(base: Props, c: BoundCase, value: unknown): Props {
  const merged: Props = { ...base, ...c.with, [c.input]: value };
  return Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
}

/** `check` of a create (no previous inputs) or an update (the base as deployed). */
async function check(resource: Resource, olds: Props, news: Props): Promise<{ inputs: Props; failures: Failure[] }> {
  const result = await PROVIDERS[resource].check(olds, news);
  return { inputs: result.inputs, failures: result.failures as Failure[] };
}

/** The line the engine prints for a failure: `property <field> value {<value>} has a problem: <rule>`. */
function engineLine(failure: Failure, inputs: Props): string {
  return `property ${failure.property} value {${JSON.stringify(inputs[failure.property])}} has a problem: ${failure.reason}`;
}

const key = (b: DocumentedBound) => `${b.field} ${b.keyword}`;

for (const version of ["v1", "v2"] as const) {
  describe(`management API ${version}: every bound of its OpenAPI document's create and update requests`, () => {
    const bounds = requestBounds(version);
    const groups = BOUND_CASES[version];
    const groupOf = (op: string) => groups.find((g) => g.ops.includes(op));
    afterAll(() => configureDirect({}));

    it("are all mapped to a resource input or listed as an exception with a reason", () => {
      expect(bounds.length).toBeGreaterThan(0);
      const unmapped = bounds.filter((b) => groupOf(b.op)?.bounds[key(b)] === undefined);
      expect(unmapped.map((b) => `${b.op} ${key(b)} ${b.limit}`)).toEqual([]);
      // A case whose bound the document no longer states is stale.
      const stated = new Set(bounds.map((b) => `${b.op} ${key(b)}`));
      const stale = groups.flatMap((g) =>
        Object.keys(g.bounds).filter((k) => !g.ops.some((op) => stated.has(`${op} ${k}`))),
      );
      expect(stale).toEqual([]);
    });

    const walked = bounds
      .map((b) => ({ b, group: groupOf(b.op), entry: groupOf(b.op)?.bounds[key(b)] }))
      .filter((x): x is { b: DocumentedBound; group: NonNullable<typeof x.group>; entry: BoundEntry } => !!x.entry);
    const cases = walked.flatMap(({ b, group, entry }) =>
      "exception" in entry ? [] : (Array.isArray(entry) ? entry : [entry]).map((c) => ({ b, group, c })),
    );

    it.each(cases.map((x) => [`${x.b.op} ${key(x.b)} ${x.b.limit} → ${x.group.resource}.${x.c.input}`, x] as const))(
      "%s: refused at preview, naming the field, the value and the rule",
      async (_name, { b, group, c }) => {
        configureDirect({ apiUrl: URLS[version] });
        const update = !b.op.startsWith("POST") || b.op.endsWith("/update");
        const olds = update ? inputsOf(group.base, c, c.ok ?? group.base[c.input]) : {};
        const news = inputsOf(group.base, c, c.bad);
        const { inputs, failures } = await check(group.resource, olds, news);
        const onField = failures.filter((f) => f.property === c.input);
        expect(onField.map((f) => f.reason).join("; "), JSON.stringify(failures)).toContain(c.rule);
        const line = engineLine(
          onField.find((f) => f.reason.includes(c.rule))!,
          inputs,
        );
        expect(line).toContain(`property ${c.input} value {${JSON.stringify(c.bad)}}`);
        if (c.ok !== undefined && !update) {
          const accepted = await check(group.resource, {}, inputsOf(group.base, c, c.ok));
          expect(accepted.failures.filter((f) => f.property === c.input)).toEqual([]);
        }
      },
    );

    it("lists each exception with its reason", () => {
      const exceptions = walked.filter(({ entry }) => "exception" in entry);
      for (const { entry } of exceptions) expect((entry as { exception: string }).exception.length).toBeGreaterThan(20);
    });
  });
}
