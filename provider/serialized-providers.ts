import type { ResourceProvider } from "@pulumi/pulumi/dynamic";

/*
 * These objects are what Pulumi serializes into each resource's `__provider`. Each method only
 * requires the implementation by package name when it runs, so the text is a few hundred bytes,
 * captures no module, schema, agent, config value or secret, and stays identical across package
 * versions (an upgrade shows no diff). Do not reference anything outside the function bodies.
 */

/** Serialized provider of `NetworkVolume`. */
export const networkVolumeShim: ResourceProvider = {
  configure: (req) => require("pulumi-runpod/provider/impl").configure(req),
  check: (olds, news) => require("pulumi-runpod/provider/impl").networkVolume.check(olds, news),
  diff: (id, olds, news) => require("pulumi-runpod/provider/impl").networkVolume.diff(id, olds, news),
  create: (inputs) => require("pulumi-runpod/provider/impl").networkVolume.create(inputs),
  read: (id, props) => require("pulumi-runpod/provider/impl").networkVolume.read(id, props),
  update: (id, olds, news) => require("pulumi-runpod/provider/impl").networkVolume.update(id, olds, news),
  delete: (id, props) => require("pulumi-runpod/provider/impl").networkVolume.delete(id, props),
};

/** Serialized provider of `ServerlessEndpoint`. */
export const serverlessEndpointShim: ResourceProvider = {
  configure: (req) => require("pulumi-runpod/provider/impl").configure(req),
  check: (olds, news) => require("pulumi-runpod/provider/impl").serverlessEndpoint.check(olds, news),
  diff: (id, olds, news) => require("pulumi-runpod/provider/impl").serverlessEndpoint.diff(id, olds, news),
  create: (inputs) => require("pulumi-runpod/provider/impl").serverlessEndpoint.create(inputs),
  read: (id, props) => require("pulumi-runpod/provider/impl").serverlessEndpoint.read(id, props),
  update: (id, olds, news) => require("pulumi-runpod/provider/impl").serverlessEndpoint.update(id, olds, news),
  delete: (id, props) => require("pulumi-runpod/provider/impl").serverlessEndpoint.delete(id, props),
};
