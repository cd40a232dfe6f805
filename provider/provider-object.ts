import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { z } from "zod";
import type { RunpodClient } from "../sdk/client";

type Props = Record<string, unknown>;

/**
 * A resource's provider object in `runpod-iac/impl`: the check, diff, create, read, update and
 * delete the dynamic resources run, which the provider plugin runs too, and what the plugin needs
 * beyond them (the schema of the inputs, how to read one record for `pulumi import`). A kind's
 * provider file declares all of it, so the plugin serves a kind with no entry of its own
 * (plugin/plugin-resources.ts).
 */
export interface ResourceProviderObject {
  /** Takes the stack's configuration (the engine calls it before any other method). */
  configure(req: dynamic.ConfigureRequest): Promise<void>;
  check(olds: Props, news: Props): Promise<dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<dynamic.DiffResult>;
  create(inputs: Props): Promise<dynamic.CreateResult>;
  read(id: string, props: Props): Promise<dynamic.ReadResult>;
  /** Absent when every change replaces (the platform has no update for the resource). */
  update?(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult>;
  /** `props`: the resource's outputs in state (the dynamic provider host and the plugin both pass them). */
  delete(id: string, props?: Props): Promise<void>;
  /**
   * The zod schema of the inputs, the one `check` validates them with: the plugin's schema takes
   * its enums, bounds and formats from it (plugin/schema-gen).
   */
  readonly inputSchema: z.ZodObject;
  /** The platform's record of the resource with `id`: what `pulumi import` reads. */
  fetch(client: RunpodClient, id: string): Promise<object>;
}
