// The worker's HTTP server, as an emulator handler (docs/emulator.md, "Load-balancing endpoints"):
// the request arrives as `input`, the return value is the answer. On the platform, the image
// `ghcr.io/acme/greeter` would run a real server on port 8000 with the same routes.
export default async function ({ input, env }) {
  if (input.method === "GET" && input.path === "/hello") {
    const name = input.query?.name ?? "world";
    return { greeting: `${env?.GREETING ?? "hello"}, ${name}` };
  }
  if (input.method === "POST" && input.path === "/echo") return { statusCode: 200, body: input.body };
  return { statusCode: 404, body: { error: `no route ${input.method} ${input.path}` } };
}
