import type { FastifyInstance } from "fastify";
import type { ProblemRoutes } from "../server/problem-routes";
import { registerS3Routes } from "./s3/s3-routes";
import type { RegisterRoutes, ServerContext } from "../server/server-context";
import { registerAdminRoutes } from "./admin/admin-routes";
import { registerBatchFailRoutes } from "./admin/batch-fail-routes";
import { registerImageRoutes } from "./admin/image-routes";
import { registerPreemptionRoutes } from "./admin/preemption-routes";
import { LOAD_BALANCER_PREFIX, registerLoadBalancerRoutes } from "./load-balancer/load-balancer-routes";
import { registerBillingRoutesV1 } from "./v1/billing-routes";
import { registerEndpointRoutesV1 } from "./v1/endpoint-routes";
import { registerNetworkVolumeRoutesV1 } from "./v1/network-volume-routes";
import { registerPodRoutesV1 } from "./v1/pod-routes";
import { registerRegistryAuthRoutesV1 } from "./v1/registry-auth-routes";
import { registerTemplateRoutesV1 } from "./v1/template-routes";
import { registerBatchRoutesV2 } from "./v2/batch-routes";
import { registerBillingRoutesV2 } from "./v2/billing-routes";
import { registerCatalogRoutesV2 } from "./v2/catalog-routes";
import { registerClusterRoutesV2 } from "./v2/cluster-routes";
import { registerJobRoutesV2 } from "./v2/job-routes";
import { registerNetworkVolumeRoutesV2 } from "./v2/network-volume-routes";
import { registerOpenAiRoutesV2 } from "./v2/openai-routes";
import { registerRecentRequestRoutesV2 } from "./v2/recent-request-routes";
import { registerPodRoutesV2 } from "./v2/pod-routes";
import { registerRegistryRoutesV2 } from "./v2/registry-routes";
import { registerServerlessRoutesV2 } from "./v2/serverless-routes";
import { registerServerlessWorkerRoutesV2 } from "./v2/serverless-worker-routes";
import { registerSecretRoutesV2 } from "./v2/secret-routes";
import { registerSshKeyRoutesV2 } from "./v2/ssh-key-routes";
import { registerTemplateRoutesV2 } from "./v2/template-routes";

/** One URL prefix and the route modules under it: each module writes its paths below the prefix. */
export interface RouteTree {
  /** Where the tree answers: `/v1`, `/v2`, ... (fastify's route prefix). */
  prefix: string;
  /** Its route modules, in registration order. */
  routes: readonly RegisterRoutes[];
  /**
   * Errors are RFC 9457 problem objects (management API v2), on its routes and on any path under
   * their collections (server/problem-routes.ts learns the collections from this tree).
   */
  problems?: true;
}

/**
 * Every route the emulator answers, one tree per URL prefix: a route module is added to its
 * tree here and only here, and a new API version is a new folder and a new row. Every tree is a
 * fastify plugin registered with its prefix, so no handler spells `/v1` or `/v2`; the server's
 * hooks, error handler and not-found handler (server/build-server.ts) apply to every tree alike.
 * Two trees share `/v2`: management API v2, whose collections (`/v2/pods`, ...) answer errors as
 * problem objects, and the job API (`/v2/<endpoint_id>/...`), which does not.
 */
export const ROUTE_TREES: readonly RouteTree[] = [
  {
    // Management API v1.
    prefix: "/v1",
    routes: [
      registerNetworkVolumeRoutesV1,
      registerEndpointRoutesV1,
      registerTemplateRoutesV1,
      registerRegistryAuthRoutesV1,
      registerPodRoutesV1,
      registerBillingRoutesV1,
    ],
  },
  {
    // Management API v2 (`/v2/<collection>`): errors are problem objects.
    prefix: "/v2",
    problems: true,
    routes: [
      registerNetworkVolumeRoutesV2,
      registerCatalogRoutesV2,
      registerServerlessRoutesV2,
      registerServerlessWorkerRoutesV2,
      registerTemplateRoutesV2,
      registerRegistryRoutesV2,
      registerPodRoutesV2,
      registerClusterRoutesV2,
      registerSshKeyRoutesV2,
      registerSecretRoutesV2,
      registerBillingRoutesV2,
    ],
  },
  {
    // The job API of queue-based endpoints (`/v2/<endpoint_id>/...`): `{ error, message }` bodies, the per-endpoint rate limits.
    prefix: "/v2",
    routes: [registerJobRoutesV2, registerBatchRoutesV2, registerOpenAiRoutesV2, registerRecentRequestRoutesV2],
  },
  {
    // The emulator's own routes: state, faults, stats, clock, reset, preemption, the image model's images.
    prefix: "/_emulator",
    routes: [registerAdminRoutes, registerImageRoutes, registerPreemptionRoutes, registerBatchFailRoutes],
  },
  {
    // Load-balancing endpoints answering HTTP (`/lb/<endpoint_id>/<path>`).
    prefix: LOAD_BALANCER_PREFIX,
    routes: [registerLoadBalancerRoutes],
  },
  {
    // Each data center's S3-compatible API over the network volumes' files (`/s3api-<dc>/<volume id>/<key>`):
    // its own content parsing, SigV4 authentication and XML errors (emulator/s3/s3-routes.ts).
    prefix: "",
    routes: [registerS3Routes],
  },
];

/** Registers each tree as a fastify plugin under its prefix; a problem-object tree's routes through `problems`. */
export function registerRouteTrees(app: FastifyInstance, ctx: ServerContext, problems: ProblemRoutes): void {
  for (const tree of ROUTE_TREES) {
    app.register(
      async (scope) => {
        if (tree.problems) problems.adopt(scope);
        for (const register of tree.routes) register(scope, ctx);
      },
      { prefix: tree.prefix },
    );
  }
}
