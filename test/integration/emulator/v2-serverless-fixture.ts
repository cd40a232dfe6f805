import { expect } from "vitest";
import type { Answer, Client } from "./helpers";
import { v2ResponseProblems } from "./openapi-v2";

/*
 * What the tests of management v2's serverless endpoints share: the paths, a queue endpoint's
 * body, and the check every answer they see goes through.
 */

/** The collection's path, and an item's as the OpenAPI names it. */
export const COLLECTION = "/v2/serverless";
export const ITEM = "/v2/serverless/{id}";

/** Every v2 answer a test sees is checked against the v2 OpenAPI. */
export function conforms(method: string, template: string, res: Answer): Answer {
  expect(v2ResponseProblems(method, template, res.status, res.body), JSON.stringify(res.body)).toEqual([]);
  return res;
}

/** A queue endpoint of the echo handler on one pool. */
export const QUEUE_BODY = {
  name: "images",
  type: "QUEUE",
  image: "ghcr.io/acme/echo:1.0",
  gpu: { pools: ["ADA_24"], count: 1 },
  scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  workers: { min: 0, max: 2, idleTimeout: 5 },
};

/** Creates endpoints through `api`: the queue body with `body` over it; the answer must be a conforming 201. */
export function endpointCreator(api: Client) {
  return async function create(body: Record<string, unknown> = {}) {
    const res = conforms("POST", COLLECTION, await api.post(COLLECTION, { ...QUEUE_BODY, ...body }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
}
