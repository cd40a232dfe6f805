import Fastify from "fastify";

/*
 * The baseline of the `/health` comparison: a bare fastify app with fastify's defaults and one
 * route at the emulator's path, answering a body of the same shape as the emulator's `/health`.
 * No hooks, no authentication, no counters: what fastify alone costs per request on this machine.
 * Runs in its own process, as the emulator does, and prints the same `ready` line:
 *
 *   node dist/bench/bare-fastify.js
 */

const HEALTH = {
  jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 },
  workers: { idle: 0, running: 0, initializing: 0, ready: 0, throttled: 0, unhealthy: 0 },
};

async function main(): Promise<void> {
  const app = Fastify();
  app.get("/v2/:endpointId/health", (_req, reply) => {
    reply.send(HEALTH);
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  process.stdout.write(`ready: listening on ${address}\n`);
  const close = () => void app.close().then(() => process.exit(0));
  process.once("SIGTERM", close);
  process.once("SIGINT", close);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
