// Type-level tests of the field tables, compiled by `npm run lint:types` (in `npm test`)
// (test/tsconfig.type-tests.json). Each `@ts-expect-error` line must be an error: if the check it
// guards stopped rejecting the case, the directive itself would be the error and the build fails.
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Expect, SchemaMatchesTable } from "../../../provider/check-inputs";
import {
  CLUSTER_FIELDS,
  CONTAINER_REGISTRY_AUTH_FIELDS,
  type FieldTable,
  NETWORK_VOLUME_FIELDS,
  POD_FIELDS,
  type ResourceArgsByType,
  SERVERLESS_ENDPOINT_FIELDS,
  TEMPLATE_FIELDS,
} from "../../../provider/field-rules";
import type { ClusterArgs } from "../../../provider/cluster";
import type { ContainerRegistryAuthArgs } from "../../../provider/container-registry-auth";
import type { NetworkVolumeArgs } from "../../../provider/network-volume";
import type { PodArgs } from "../../../provider/pod";
import type { ServerlessEndpointArgs } from "../../../provider/serverless-endpoint";
import type { TemplateArgs } from "../../../provider/template";
import { ContainerRegistryAuthCreateInputSchema, NetworkVolumeCreateInputSchema } from "../../../sdk/schemas";

interface WidgetArgs {
  name?: pulumi.Input<string>;
  size: pulumi.Input<number>;
  adoptId?: pulumi.Input<string>;
}

// A table with one rule per input, bookkeeping inputs (adoptId) aside, compiles.
export const complete: FieldTable<WidgetArgs> = { name: {}, size: { replaces: true } };

// @ts-expect-error an input of the Args without a rule
export const missing: FieldTable<WidgetArgs> = { name: {} };

// @ts-expect-error a misspelled key (`sise`)
export const misspelled: FieldTable<WidgetArgs> = { name: {}, size: {}, sise: {} };

// Each resource's table is checked against its own Args: a field added to any Args without a
// rule makes the existing table fail to type as that resource's table.
// @ts-expect-error NetworkVolumeArgs plus a field the table lacks
export const volumeWithNewField: FieldTable<NetworkVolumeArgs & { tier: string }> = NETWORK_VOLUME_FIELDS;
// @ts-expect-error ServerlessEndpointArgs plus a field the table lacks
export const endpointWithNewField: FieldTable<ServerlessEndpointArgs & { region: string }> = SERVERLESS_ENDPOINT_FIELDS;
// @ts-expect-error TemplateArgs plus a field the table lacks
export const templateWithNewField: FieldTable<TemplateArgs & { startSftp: boolean }> = TEMPLATE_FIELDS;
// @ts-expect-error ContainerRegistryAuthArgs plus a field the table lacks
export const authWithNewField: FieldTable<ContainerRegistryAuthArgs & { server: string }> =
  CONTAINER_REGISTRY_AUTH_FIELDS;

// A resource type needs its Args in ResourceArgsByType before FIELD_RULES can hold its table.
// @ts-expect-error "Widget" is not a key of ResourceArgsByType
export type UnknownArgs = ResourceArgsByType["Widget"];
// Cluster is, and its table is checked against ClusterArgs like the others.
export const clusterTable: FieldTable<ResourceArgsByType["Cluster"]> = CLUSTER_FIELDS;
// @ts-expect-error ClusterArgs plus a field the table lacks
export const clusterWithNewField: FieldTable<ClusterArgs & { registry: string }> = CLUSTER_FIELDS;
// Pod is, and its table is checked against PodArgs like the others.
export const podTable: FieldTable<ResourceArgsByType["Pod"]> = POD_FIELDS;
// @ts-expect-error PodArgs plus a field the table lacks
export const podWithNewField: FieldTable<PodArgs & { clusterId: string }> = POD_FIELDS;
// A rule may say a change resets: the third kind of change, besides in place and replacement.
export const resetRule: FieldTable<{ image: string }> = { image: { resets: true } };

// What `check` validates matches the table: the same keys, bookkeeping inputs aside.
export type VolumeSchemaMatches = Expect<
  SchemaMatchesTable<typeof NetworkVolumeCreateInputSchema, typeof NETWORK_VOLUME_FIELDS>
>;
export type AuthSchemaMatches = Expect<
  SchemaMatchesTable<typeof ContainerRegistryAuthCreateInputSchema, typeof CONTAINER_REGISTRY_AUTH_FIELDS>
>;
export const volumeSchemaWithTier = NetworkVolumeCreateInputSchema.extend({ tier: z.string() });
export const volumeSchemaWithAdoptId = NetworkVolumeCreateInputSchema.extend({ adoptId: z.string().optional() });
// @ts-expect-error the schema validates a field the table has no rule for
export type SchemaHasExtraField = Expect<SchemaMatchesTable<typeof volumeSchemaWithTier, typeof NETWORK_VOLUME_FIELDS>>;
type TableWithTier = FieldTable<{ name: string; size: number; dataCenterId: string; tier: string }>;
// @ts-expect-error the table has a rule for a field the schema does not validate
export type TableHasExtraField = Expect<SchemaMatchesTable<typeof NetworkVolumeCreateInputSchema, TableWithTier>>;
// Bookkeeping inputs may be in the schema without a rule.
export type AdoptIdIsBookkeeping = Expect<
  SchemaMatchesTable<typeof volumeSchemaWithAdoptId, typeof NETWORK_VOLUME_FIELDS>
>;
