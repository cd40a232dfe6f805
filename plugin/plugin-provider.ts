import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { Provider } from "@pulumi/pulumi/provider";
import { PLATFORM_VALUE_FIELDS } from "../sdk/schemas/known-values";
import { autoName } from "../provider/auto-name";
import { warnOnResource } from "../provider/engine-notice";
import { runStep } from "../provider/step-context";
import { platformValueWarnings } from "../provider/platform-value-warnings";
import { isUnknown } from "../provider/property-values";
import { providerReference } from "../provider/runpod-resource";
import { invokeCatalogFunction, isCatalogFunctionName } from "../provider/catalog-functions";
import { providerClient } from "../provider/provider-config";
import { importRead } from "./import-read";
import { isPluginResourceType, PLUGIN_RESOURCES, type PluginResourceType } from "./plugin-resources";
import { resourceShape, schemaText } from "./plugin-schema";
import { answerDetailedDiff, oldInputs, type PropertyChange, requestTimeoutSeconds, secretValue } from "./server-gaps";
import { PLUGIN_NAME, partsOfUrn, typeOfUrn } from "./type-tokens";

type Props = Record<string, unknown>;
/** The detailed diff a provider object may answer with (the dynamic provider host drops it; the plugin sends it). */
type DetailedDiff = Readonly<Record<string, { kind: PropertyChange }>>;

/** The resource type a URN names; an error naming the URN when the plugin has no such type. */
function typeOf(urn: string): PluginResourceType {
  const type = typeOfUrn(urn);
  if (!isPluginResourceType(type)) throw new Error(`runpod-iac has no resource type for ${urn}`);
  return type;
}

/** `props` with the keys in `keys` that hold a value wrapped as secrets. */
function withSecrets(props: Props | undefined, keys: readonly string[]): Props {
  const out: Props = { ...props };
  for (const key of keys) if (out[key] !== undefined) out[key] = secretValue(out[key]);
  return out;
}

/**
 * A resource's outputs as the plugin returns them: the provider's, the schema's always-secret
 * outputs marked, and the `__provider` reference of the dynamic resource. The last one lets a
 * TypeScript stack move back from the plugin's classes to the dynamic resources by its import
 * line: the dynamic provider host finds the implementation of a refresh or a destroy in the
 * outputs' `__provider` (about 60 bytes); the plugin itself never reads it.
 */
function outputsOf(type: PluginResourceType, outs: Props | undefined): Props {
  return { ...withSecrets(outs, resourceShape(type).secretOutputs), __provider: providerReference(type) };
}

/**
 * An error of a create or update that changed the platform part way (a resource created but not
 * configured, files partly written): the engine records the properties it carries, given the
 * plugin's outputs as any other result.
 */
function partialOutputs(type: PluginResourceType, err: unknown): unknown {
  const partial = err as { id?: string; properties?: Props };
  if (partial?.id && partial.properties) partial.properties = outputsOf(type, partial.properties);
  return err;
}

/**
 * The inputs a program leaves unnamed get the dynamic resources' auto-name: the logical name plus
 * a suffix of project, stack and type (auto-name.ts), read here from the URN. A stack moving
 * between the dynamic resources and the plugin keeps its names, and a lost create finds its
 * resource by it (create-once.ts).
 */
function withAutoName(urn: string, type: PluginResourceType, news: Props): Props {
  if (news.name !== undefined) return news;
  const { stack, project, name } = partsOfUrn(urn);
  return { ...news, name: autoName(name, { project, stack, type }), __autoNamed: true };
}

/**
 * Inputs the platform never returns (a registry password), as the state holds them: in the old
 * outputs, else in the old inputs. A resource `pulumi import` brought in has neither, and takes
 * the program's values as what it holds; they are stored by the next `up`.
 */
function withWriteOnly(type: PluginResourceType, olds: Props, news: Props | undefined): [Props, Props | undefined] {
  const writeOnly: readonly string[] = PLUGIN_RESOURCES[type].writeOnly ?? [];
  if (writeOnly.length === 0) return [olds, news];
  const inputs = oldInputs() ?? {};
  const filled: Props = { ...olds };
  const adopted: Props | undefined = news && { ...news };
  for (const key of writeOnly) {
    if (filled[key] === undefined) filled[key] = inputs[key];
    if (filled[key] === undefined && adopted) delete adopted[key];
  }
  return [filled, adopted];
}

/** Warns, under the resource, about values of open sets (GPU types, data centers, ...) this release does not know. */
async function warnAboutPlatformValues(urn: string, type: PluginResourceType, inputs: Props): Promise<void> {
  if (!(type in PLATFORM_VALUE_FIELDS)) return;
  const known = Object.fromEntries(Object.entries(inputs).filter(([, v]) => !isUnknown(v)));
  for (const warning of platformValueWarnings(type as keyof typeof PLATFORM_VALUE_FIELDS, known)) {
    await warnOnResource(urn, warning);
  }
}

/**
 * The plugin `runpod-iac`: a Pulumi resource provider that runs, for each type token
 * `runpod-iac:index:<Type>`, the provider object of the dynamic resource (`runpod-iac/impl`), so
 * every rule, refusal and message is the same. What differs is only what a plugin gets from the
 * engine differently: the URN (auto-names and notices), imports, and the secret marks of the schema.
 */
export function pluginProvider(version: string): Provider {
  return {
    version,

    async getSchema() {
      return schemaText();
    },

    async check(urn, olds: Props, news: Props): Promise<dynamic.CheckResult> {
      const type = typeOf(urn);
      const result = await PLUGIN_RESOURCES[type].provider.check(olds ?? {}, withAutoName(urn, type, news));
      if (!result.failures?.length) await warnAboutPlatformValues(urn, type, result.inputs ?? {});
      return { ...result, inputs: withSecrets(result.inputs, resourceShape(type).secretInputs) };
    },

    async diff(id, urn, olds: Props, news: Props): Promise<dynamic.DiffResult> {
      const type = typeOf(urn);
      const [before, after] = withWriteOnly(type, olds, news);
      // The URN, for the notices a diff sends to the engine's log (a pod's reset).
      const result = await PLUGIN_RESOURCES[type].provider.diff(id, before, { ...after, __urn: urn });
      const { detailedDiff, ...rest } = result as dynamic.DiffResult & { detailedDiff?: DetailedDiff };
      if (detailedDiff) answerDetailedDiff(detailedDiff);
      return rest;
    },

    async create(urn, inputs: Props): Promise<dynamic.CreateResult> {
      const type = typeOf(urn);
      try {
        // The URN, for what a step tells the engine under the resource (a rollout's or an upload's
        // progress), and the engine's timeout of the step.
        const step = { urn, timeoutSeconds: requestTimeoutSeconds() };
        const result = await runStep(step, () => PLUGIN_RESOURCES[type].provider.create({ ...inputs, __urn: urn }));
        return { id: result.id, outs: outputsOf(type, result.outs) };
      } catch (err) {
        throw partialOutputs(type, err);
      }
    },

    async read(id, urn, props?: Props): Promise<dynamic.ReadResult> {
      const type = typeOf(urn);
      const importing = props === undefined || Object.keys(props).length === 0;
      const result = importing
        ? await importRead(type, id)
        : await PLUGIN_RESOURCES[type].provider.read(id, withWriteOnly(type, props, undefined)[0]);
      if (!result.id) return {};
      return {
        id: result.id,
        props: outputsOf(type, result.props),
        inputs: result.inputs && withSecrets(result.inputs, resourceShape(type).secretInputs),
      };
    },

    async update(id, urn, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
      const type = typeOf(urn);
      const update = PLUGIN_RESOURCES[type].provider.update;
      if (!update) throw new Error(`${urn}: ${type} has no update; every change replaces it`);
      const step = { urn, timeoutSeconds: requestTimeoutSeconds() };
      try {
        const result = await runStep(step, () =>
          update.call(PLUGIN_RESOURCES[type].provider, id, olds, { ...news, __urn: urn }),
        );
        return { outs: outputsOf(type, result.outs) };
      } catch (err) {
        throw partialOutputs(type, err);
      }
    },

    async delete(id, urn, props: Props) {
      await PLUGIN_RESOURCES[typeOf(urn)].provider.delete(id, { ...props, __urn: urn });
    },

    // The catalog functions (`runpod-iac:index:getGpuTypes`, ...): the same implementation a
    // TypeScript program's `getGpuTypes` runs, with the client of the plugin's configuration
    // (`runpod-iac:apiKey`/`apiUrl`, then the environment).
    async invoke(token: string, inputs: Props): Promise<{ outputs: Props }> {
      const prefix = `${PLUGIN_NAME}:index:`;
      const name = token.startsWith(prefix) ? token.slice(prefix.length) : "";
      if (!isCatalogFunctionName(name)) throw new Error(`${PLUGIN_NAME} has no function ${token}`);
      const client = await providerClient();
      return { outputs: (await invokeCatalogFunction(name, client, inputs ?? {})) as unknown as Props };
    },
  };
}
