import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../../server/server-context";
import { notFound } from "../../errors/http-errors";

const IMAGE_FILE = /^([a-z0-9]{1,40})\.png$/;

/** Serves the images of the image model without authentication, so a browser can open `image_url`. */
export function registerImageRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { file: string } }>("/images/:file", { config: { public: true } }, (req, reply) => {
    const id = IMAGE_FILE.exec(req.params.file)?.[1];
    const png = id ? ctx.images.render(id) : undefined;
    if (!png) throw notFound(`image ${req.params.file} not found (unknown or evicted)`);
    reply.header("content-type", "image/png").header("cache-control", "public, max-age=86400").send(png);
  });
}
