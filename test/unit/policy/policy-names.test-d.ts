// Type-level tests of the pack's policy names, compiled by `npm run lint:types` (in `npm test`)
// (test/tsconfig.type-tests.json): the list of policies is written once (policy/index.ts) and the
// type of their names follows from it.
import type { Expect } from "../../../provider/check-inputs";
import type { RunpodPolicyName } from "../../../policy/index";
import { LIVE_CATALOG_POLICY } from "../../../policy/live-catalog";
import { WORKER_BOUNDS_POLICY } from "../../../policy/worker-bounds";

// Each policy's own name is a name of the pack.
export const workerBounds: RunpodPolicyName = WORKER_BOUNDS_POLICY;
export const liveCatalog: RunpodPolicyName = LIVE_CATALOG_POLICY;
// @ts-expect-error a name no policy of the pack has
export const unknown: RunpodPolicyName = "runpod-no-such-policy";
// @ts-expect-error any string is not a name (the names are literal types, not `string`)
export const anyString: RunpodPolicyName = String("runpod-worker-bounds");

// Fourteen policies, fourteen names.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type FourteenNames = Expect<
  Same<
    RunpodPolicyName,
    | "runpod-gpu-priority-list"
    | "runpod-worker-bounds"
    | "runpod-stack-worker-budget"
    | "runpod-volume-size-cap"
    | "runpod-stack-volume-size-cap"
    | "runpod-image-pinning"
    | "runpod-volume-locality"
    | "runpod-contradictory-inputs"
    | "runpod-serverless-template"
    | "runpod-stack-cost-ceiling"
    | "runpod-known-platform-values"
    | "runpod-pod-limits"
    | "runpod-live-catalog"
    | "runpod-plaintext-credentials"
  >
>;
