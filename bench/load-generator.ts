import autocannon from "autocannon";

/** Sustained load figures of one route. */
export interface LoadFigures {
  requestsPerSecond: number;
  /** Requests answered over the whole run. */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** One route to load: method, path (relative to the origin) and an optional JSON body. */
export interface LoadRoute {
  method: "GET" | "POST";
  path: string;
  body?: string;
}

/**
 * Drives one route with autocannon (an established load generator) for `seconds` over
 * `connections` keep-alive connections, in this process; the server runs in another.
 */
export async function loadRoute(
  origin: string,
  apiKey: string,
  route: LoadRoute,
  seconds: number,
  connections: number,
): Promise<LoadFigures> {
  const result = await autocannon({
    url: `${origin}${route.path}`,
    method: route.method,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    ...(route.body === undefined ? {} : { body: route.body }),
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
