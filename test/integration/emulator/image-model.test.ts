import { request } from "undici";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";

const ctx = useTestEmulator({}, "file");
const { api } = ctx;

async function fetchPng(url: string) {
  const res = await request(url);
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, type: res.headers["content-type"], body };
}

describe("pre-deployed image model (docs/platform.md 'Pre-deployed models')", () => {
  it("answers /runsync with output.image_url, a PNG of the requested size served without authentication", async () => {
    const res = await api.post("/v2/sdxl-turbo/runsync", {
      input: { prompt: "a lighthouse at dusk", width: 320, height: 200 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "COMPLETED",
      output: { image_url: expect.any(String), width: 320, height: 200 },
    });
    const url: string = res.body.output.image_url;
    expect(url.startsWith(`${ctx.emu.url}/_emulator/images/`)).toBe(true);
    const png = await fetchPng(url);
    expect(png.status).toBe(200);
    expect(png.type).toBe("image/png");
    expect(png.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.body.toString("latin1", 12, 16)).toBe("IHDR");
    expect(png.body.readUInt32BE(16)).toBe(320);
    expect(png.body.readUInt32BE(20)).toBe(200);
    expect(png.body.subarray(-8, -4).toString("latin1")).toBe("IEND");
  });

  it("draws the same picture for the same prompt and a different one for another prompt", async () => {
    const urls = [];
    for (const prompt of ["same", "same", "other"]) {
      urls.push(
        (await api.post("/v2/sdxl-turbo/runsync", { input: { prompt, width: 64, height: 64 } })).body.output.image_url,
      );
    }
    const [a, b, c] = await Promise.all(urls.map(fetchPng));
    expect(a!.body.equals(b!.body)).toBe(true);
    expect(a!.body.equals(c!.body)).toBe(false);
  });

  it("uses 512 x 512 when no size is given", async () => {
    const res = await api.post("/v2/sdxl-turbo/runsync", { input: { prompt: "default size" } });
    expect(res.body.output).toMatchObject({ width: 512, height: 512 });
  });

  it.each([
    [{ prompt: "x", width: 63, height: 64 }, "width = 63: must be at least 64"],
    [{ prompt: "x", width: 64, height: 2049 }, "height = 2049: must be at most 2048"],
    [{ width: 64, height: 64 }, "prompt = undefined: is required"],
  ])("fails the job for input %j, as the worker's input validation would", async (input, error) => {
    const res = await api.post("/v2/sdxl-turbo/runsync", { input });
    expect(res.body).toMatchObject({ status: "FAILED", error });
  });

  it("also serves /run and /status for the model", async () => {
    const { id } = (await api.post("/v2/sdxl-turbo/run", { input: { prompt: "async", width: 64, height: 64 } })).body;
    const status = await api.get(`/v2/sdxl-turbo/status/${id}`);
    expect(status.body.output.image_url).toMatch(/\.png$/);
  });

  it("answers 404 for an unknown image", async () => {
    expect((await fetchPng(`${ctx.emu.url}/_emulator/images/nothing.png`)).status).toBe(404);
    expect((await fetchPng(`${ctx.emu.url}/_emulator/images/..%2Fsecret`)).status).toBe(404);
  });
});
