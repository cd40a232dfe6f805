import type { ResourceProvider } from "@pulumi/pulumi/dynamic";

/*
 * These objects are what Pulumi serializes into each resource's `__provider`. Each method only
 * requires the implementation by package name when it runs, so the text is a few hundred bytes,
 * captures no module, schema, agent, config value or secret, and stays identical across package
 * versions (an upgrade shows no diff). Do not reference anything outside the function bodies.
 */

/** Serialized provider of `NetworkVolume`. */
export const networkVolumeShim: ResourceProvider = {
  configure: (...a) => require("pulumi-runpod/impl").configure(...a),
  check: (...a) => require("pulumi-runpod/impl").volume.check(...a),
  diff: (...a) => require("pulumi-runpod/impl").volume.diff(...a),
  create: (...a) => require("pulumi-runpod/impl").volume.create(...a),
  read: (...a) => require("pulumi-runpod/impl").volume.read(...a),
  update: (...a) => require("pulumi-runpod/impl").volume.update(...a),
  delete: (...a) => require("pulumi-runpod/impl").volume.delete(...a),
};

/** Serialized provider of `ServerlessEndpoint`. */
export const serverlessEndpointShim: ResourceProvider = {
  configure: (...a) => require("pulumi-runpod/impl").configure(...a),
  check: (...a) => require("pulumi-runpod/impl").endpoint.check(...a),
  diff: (...a) => require("pulumi-runpod/impl").endpoint.diff(...a),
  create: (...a) => require("pulumi-runpod/impl").endpoint.create(...a),
  read: (...a) => require("pulumi-runpod/impl").endpoint.read(...a),
  update: (...a) => require("pulumi-runpod/impl").endpoint.update(...a),
  delete: (...a) => require("pulumi-runpod/impl").endpoint.delete(...a),
};
