import { beforeEach, describe, expect, it } from "vitest";
import { autoName, seriesName } from "../../../provider/auto-name";

const scope = { project: "proj", stack: "dev", type: "Template" };

describe("autoName", () => {
  it("is the logical name plus a 7-character suffix, the same on every run", () => {
    const name = autoName("worker", scope);
    expect(name).toMatch(/^worker-[0-9a-z]{7}$/);
    expect(autoName("worker", scope)).toBe(name);
  });

  it("differs between stacks, projects and types, and stays within the length limit", () => {
    const names = new Set([
      autoName("worker", scope),
      autoName("worker", { ...scope, stack: "prod" }),
      autoName("worker", { ...scope, project: "other" }),
      autoName("worker", { ...scope, type: "ContainerRegistryAuth" }),
    ]);
    expect(names.size).toBe(4);
    expect(autoName("x".repeat(300), scope, 191)).toHaveLength(191);
  });
});

describe("seriesName: unique names across create-before-delete replacements", () => {
  const news = { name: "worker-k3j9x0a", __autoNamed: true, imageName: "a:2" };
  const always = () => true;
  const never = () => false;
  // The series remembers a replacement's name for the engine's second check (module state, as in
  // the provider process); a check that replaces nothing forgets it, so each test starts clean.
  beforeEach(() => {
    seriesName({ name: news.name }, news, never);
  });

  it("keeps the auto-name on the first create", () => {
    expect(seriesName({}, news, never)).toEqual(news);
  });

  it("takes the next name of the series when the resource is replaced", () => {
    const first = seriesName({ name: "worker-k3j9x0a" }, news, always);
    expect(first).toEqual({ ...news, name: "worker-k3j9x0a-1" });
    const second = seriesName(first, news, always);
    expect(second).toEqual({ ...news, name: "worker-k3j9x0a-2" });
  });

  it("keeps the current name of the series when nothing replaces it, also after a refresh rewrote the inputs", () => {
    expect(seriesName({ name: "worker-k3j9x0a-3" }, news, never)).toEqual({ ...news, name: "worker-k3j9x0a-3" });
  });

  it("starts the series again when the auto-name itself changed (a renamed logical resource)", () => {
    expect(seriesName({ name: "old-name-abcdefg-4" }, news, always)).toEqual({ ...news, name: "worker-k3j9x0a-1" });
    expect(seriesName({ name: "old-name-abcdefg-4" }, news, never)).toEqual(news);
  });

  it("computes the same name again from the same state, so a killed replacement finds what it created", () => {
    const olds = { name: "worker-k3j9x0a", __autoNamed: true };
    expect(seriesName(olds, news, always)).toEqual(seriesName(olds, news, always));
  });

  it("answers the engine's second check of a replacement (with no old inputs) with the name the first one chose", () => {
    const olds = { name: "worker-k3j9x0a", __autoNamed: true };
    expect(seriesName(olds, news, always).name).toBe("worker-k3j9x0a-1");
    expect(seriesName({}, news, never).name).toBe("worker-k3j9x0a-1");
    // A later check that replaces nothing forgets it: a first create keeps the plain auto-name.
    expect(seriesName({ name: "worker-k3j9x0a-1" }, news, never).name).toBe("worker-k3j9x0a-1");
    expect(seriesName({}, news, never).name).toBe("worker-k3j9x0a");
  });

  it("asks whether the inputs replace the resource with the current name, which is the series' to manage", () => {
    const seen: unknown[] = [];
    seriesName({ name: "worker-k3j9x0a-2" }, news, (_olds, n) => {
      seen.push(n.name);
      return false;
    });
    expect(seen).toEqual(["worker-k3j9x0a-2"]);
  });

  it("leaves a name the user chose alone", () => {
    const named = { name: "my-template", __autoNamed: undefined };
    expect(seriesName({ name: "my-template" }, named, always)).toEqual(named);
  });
});
