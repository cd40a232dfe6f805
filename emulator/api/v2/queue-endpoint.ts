import type { EndpointRuntime } from "../../jobs/endpoint-runtime";
import { notFound } from "../../errors/http-errors";
import type { Account } from "../../store/account";

/**
 * The job runtime of a queue-based endpoint (or pre-deployed model) of the account, for the job
 * API's routes; a 404 otherwise, as the platform answers a wrong endpoint id. A load-balancing
 * endpoint has no queue: its 404 says where its workers answer instead.
 */
export function queueRuntimeOf(account: Account, endpointId: string, origin: string): EndpointRuntime {
  const runtime = account.runtime(endpointId);
  if (runtime) return runtime;
  if (account.balancer(endpointId)) {
    throw notFound(
      `endpoint ${endpointId} is a load-balancing endpoint: it has no queue and takes no jobs; ` +
        `its workers answer HTTP at ${origin}/lb/${endpointId}/...`,
    );
  }
  throw notFound(`endpoint ${endpointId} not found`);
}
