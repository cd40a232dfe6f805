import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { CostUsageError, parseCostArgs } from "../../../cli/cost/cost-args";
import { ceilingLines, readCeiling } from "../../../cli/cost/cost-ceiling";
import { costCommand, costJson } from "../../../cli/cost/cost-command";
import { formatUsd, renderTable } from "../../../cli/cost/render-table";
import { resourceSpend, spendReport, sumByBucket } from "../../../cli/cost/spend";
import { renderSpendChart } from "../../../cli/cost/spend-chart";
import { billedResources, StackReader } from "../../../cli/cost/stack-reader";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const DAY = 86_400_000;

const report = () =>
  spendReport("dev", { since: NOW - 2 * DAY, until: NOW, bucket: "day" }, NOW, [
    resourceSpend(
      { type: "Pod", name: "gpu", id: "pod-1" },
      sumByBucket([
        { time: "2026-11-25T00:00:00Z", amount: 0.1 },
        { time: "2026-11-25T00:00:00.000Z", amount: 0.2 },
        { time: "2026-11-26T00:00:00Z", amount: 10.32 },
      ]),
    ),
    resourceSpend(
      { type: "NetworkVolume", name: "data", id: "vol-1" },
      sumByBucket([{ time: "2026-11-26T00:00:00Z", amount: 0.0042 }]),
    ),
  ]);

describe("runpod-iac cost: arguments", () => {
  it("reads a duration back from now, a date, a bucket and the output flags", () => {
    expect(parseCostArgs(["--stack", "dev"], NOW)).toMatchObject({
      stack: "dev",
      since: NOW - 7 * DAY,
      until: undefined,
      bucket: "day",
      json: false,
    });
    expect(
      parseCostArgs(["--stack", "dev", "--since", "36h", "--until", "2026-11-26", "--bucket", "hour", "--json"], NOW),
    ).toMatchObject({
      since: Date.parse("2026-11-24T12:00:00Z"),
      until: Date.parse("2026-11-26T00:00:00Z"),
      bucket: "hour",
      json: true,
    });
  });

  it.each([
    [[], "--stack is required: the stack whose spend to show"],
    [
      ["--stack", "dev", "--since", "yesterday"],
      "--since yesterday: must be a duration (7d, 36h, 2w) or a date (2026-11-01)",
    ],
    [
      ["--stack", "dev", "--until", "26/11/2026"],
      "--until 26/11/2026: must be a date (2026-11-01) or a date-time with a zone (2026-11-01T12:00:00Z)",
    ],
    [["--stack", "dev", "--bucket", "minute"], "--bucket minute: must be one of hour, day, week, month, year"],
    [
      ["--stack", "dev", "--since", "2026-12-01"],
      "--since 2026-12-01: must be before --until (2026-11-26T12:00:00.000Z)",
    ],
    [["--stack", "dev", "--colour"], "Unknown option '--colour'"],
  ])("refuses %j: %s", (argv, message) => {
    expect(() => parseCostArgs(argv, NOW)).toThrow(new CostUsageError(message));
  });

  it("prints the usage with exit code 2 for a bad flag, and the help with 0", async () => {
    let err = "";
    let out = "";
    const io = { out: (t: string) => (out += t), err: (t: string) => (err += t) };
    expect(await costCommand(["--stack", "dev", "--bucket", "minute"], io)).toBe(2);
    expect(err).toMatch(
      /^runpod-iac cost: --bucket minute: must be one of hour, day, week, month, year\n\nUsage: runpod-iac cost/,
    );
    expect(await costCommand(["--help"], io)).toBe(0);
    expect(out).toMatch(/^Usage: runpod-iac cost --stack NAME/);
  });
});

describe("runpod-iac cost: the stack's resources and the arithmetic", () => {
  it("tells a missing stack by the engine's own words, and masks a secret that is one of them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cost-reader-"));
    try {
      const pulumi = path.join(dir, "pulumi");
      fs.writeFileSync(
        pulumi,
        "#!/bin/sh\necho \"error: no stack named 'organization/app/dev' found\" >&2\nexit 255\n",
        {
          mode: 0o755,
        },
      );
      // A key that is a word of the engine's message: masked first, "no **** named" would read as another failure.
      const read = new StackReader(pulumi, dir, "dev", ["stack"]).resources();
      await expect(read).rejects.toThrow(CostUsageError);
      await expect(read).rejects.toThrow(
        "no such stack in this project's backend (error: no **** named 'organization/app/dev' found)",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes the billed resources of a stack export by logical name, skipping templates and pending deletes", () => {
    const t = (type: string) => `pulumi-nodejs:dynamic/runpod:${type}`;
    const exported = {
      deployment: {
        resources: [
          { type: "pulumi:pulumi:Stack", urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev" },
          { type: t("NetworkVolume"), urn: `urn:pulumi:dev::p::${t("NetworkVolume")}::data`, id: "vol-1" },
          { type: t("Template"), urn: `urn:pulumi:dev::p::${t("Template")}::tpl`, id: "tpl-1" },
          { type: t("Pod"), urn: `urn:pulumi:dev::p::${t("Pod")}::gpu`, id: "pod-1" },
          { type: t("Pod"), urn: `urn:pulumi:dev::p::${t("Pod")}::gpu`, id: "pod-0", delete: true },
          { type: t("ServerlessEndpoint"), urn: `urn:pulumi:dev::p::${t("ServerlessEndpoint")}::ep`, id: "ep-1" },
        ],
      },
    };
    expect(billedResources(exported)).toEqual([
      { type: "NetworkVolume", name: "data", id: "vol-1" },
      { type: "Pod", name: "gpu", id: "pod-1" },
      { type: "ServerlessEndpoint", name: "ep", id: "ep-1" },
    ]);
  });

  it("takes the provider plugin's resources alike", () => {
    const t = (type: string) => `runpod-iac:index:${type}`;
    const exported = {
      deployment: {
        resources: [
          { type: t("NetworkVolume"), urn: `urn:pulumi:dev::p::${t("NetworkVolume")}::data`, id: "vol-1" },
          { type: t("ContainerRegistryAuth"), urn: `urn:pulumi:dev::p::${t("ContainerRegistryAuth")}::r`, id: "r-1" },
          { type: t("Pod"), urn: `urn:pulumi:dev::p::${t("Pod")}::gpu`, id: "pod-1" },
        ],
      },
    };
    expect(billedResources(exported)).toEqual([
      { type: "NetworkVolume", name: "data", id: "vol-1" },
      { type: "Pod", name: "gpu", id: "pod-1" },
    ]);
  });

  it("reads the key and URL from the config of the stack's provider: runpod-iac:* for the plugin's resources", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cost-settings-"));
    /** A `pulumi` answering `stack export` with resources of `type`, `config --json` and `config get`. */
    const fakePulumi = (type: string, config: Record<string, { value?: string; secret: boolean }>) => {
      const file = path.join(dir, "pulumi");
      const exported = { deployment: { resources: [{ type, urn: `urn:pulumi:dev::p::${type}::v`, id: "vol-1" }] } };
      const answers = [
        `stack) echo '${JSON.stringify(exported)}' ;;`,
        `config) if [ "$2" = get ]; then echo "decrypted($3)"; else echo '${JSON.stringify(config)}'; fi ;;`,
      ];
      fs.writeFileSync(file, `#!/bin/sh\ncase "$1" in\n${answers.join("\n")}\nesac\n`, { mode: 0o755 });
      return file;
    };
    const settings = async (pulumi: string) => {
      const reader = new StackReader(pulumi, dir, "dev", []);
      await reader.resources();
      return reader.settings();
    };
    const both = {
      "runpod:apiKey": { secret: true },
      "runpod:apiUrl": { value: "http://dynamic/v2", secret: false },
      "runpod-iac:apiKey": { secret: true },
      "runpod-iac:apiUrl": { value: "http://plugin/v1", secret: false },
    };
    try {
      // The plugin reads only its own keys: so does cost, for a stack of its resources.
      expect(await settings(fakePulumi("runpod-iac:index:NetworkVolume", both))).toEqual({
        apiKey: "decrypted(runpod-iac:apiKey)",
        apiUrl: "http://plugin/v1",
      });
      expect(await settings(fakePulumi("pulumi-nodejs:dynamic/runpod:NetworkVolume", both))).toEqual({
        apiKey: "decrypted(runpod:apiKey)",
        apiUrl: "http://dynamic/v2",
      });
      const pluginOnly = { "runpod:apiUrl": both["runpod:apiUrl"], "runpod-iac:apiKey": { value: "k", secret: false } };
      expect(await settings(fakePulumi("runpod-iac:index:Pod", pluginOnly))).toEqual({ apiKey: "k" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sums records per bucket and per resource without float noise", () => {
    const r = report();
    expect(r.resources[0]).toEqual({
      type: "Pod",
      name: "gpu",
      id: "pod-1",
      amount: 10.62,
      byBucket: { "2026-11-25T00:00:00.000Z": 0.3, "2026-11-26T00:00:00.000Z": 10.32 },
    });
    expect(r.total).toBe(10.6242);
    expect(r.buckets).toEqual(["2026-11-25T00:00:00.000Z", "2026-11-26T00:00:00.000Z"]);
  });

  it("prints dollars with cents, and four decimals under a cent", () => {
    expect([formatUsd(10.62), formatUsd(0.0042), formatUsd(0), formatUsd(1234.5)]).toEqual([
      "$10.62",
      "$0.0042",
      "$0.00",
      "$1234.50",
    ]);
  });
});

describe("runpod-iac cost: rendering", () => {
  it("prints spend per resource and per bucket, with totals", () => {
    expect(renderTable(report())).toBe(
      [
        "Spend of stack dev, 2026-11-24T12:00:00.000Z to 2026-11-26T12:00:00.000Z, in USD, by day",
        "",
        "RESOURCE  TYPE           ID      AMOUNT",
        "--------  -------------  -----  -------",
        "gpu       Pod            pod-1   $10.62",
        "data      NetworkVolume  vol-1  $0.0042",
        "--------  -------------  -----  -------",
        "TOTAL                            $10.62",
        "",
        "DAY (UTC)   AMOUNT",
        "----------  ------",
        "2026-11-25   $0.30",
        "2026-11-26  $10.32",
        "----------  ------",
        "TOTAL       $10.62",
        "",
      ].join("\n"),
    );
  });

  it("prints the JSON document of the contract", () => {
    expect(costJson(report())).toEqual({
      stack: "dev",
      since: "2026-11-24T12:00:00.000Z",
      until: "2026-11-26T12:00:00.000Z",
      currency: "USD",
      total: 10.6242,
      resources: [
        {
          type: "Pod",
          name: "gpu",
          id: "pod-1",
          amount: 10.62,
          byBucket: { "2026-11-25T00:00:00.000Z": 0.3, "2026-11-26T00:00:00.000Z": 10.32 },
        },
        {
          type: "NetworkVolume",
          name: "data",
          id: "vol-1",
          amount: 0.0042,
          byBucket: { "2026-11-26T00:00:00.000Z": 0.0042 },
        },
      ],
    });
  });

  it("draws one stacked bar per bucket, one colour per resource, totals above the bars and a legend", () => {
    const svg = renderSpendChart(report());
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain("Spend of stack dev by day: $10.62 in total");
    expect(
      svg.match(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" fill="#[0-9a-f]{6}"><title>/g),
    ).toHaveLength(3);
    expect(svg).toContain("<title>gpu (Pod): $10.32 on 2026-11-26</title>");
    expect(svg).toContain(">$0.30</text>");
    expect(svg).toContain(">gpu (Pod) $10.62</text>");
    expect(svg).toContain(">data (NetworkVolume) $0.0042</text>");
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  });
});

describe("runpod-iac cost: the cost ceiling", () => {
  it("reads the ceiling of the policy config for the stack and shows spend against each cap over the window", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cost-")), "policy-config.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        "runpod-stack-cost-ceiling": {
          enforcementLevel: "advisory",
          gpuPricesPerHour: { "NVIDIA L4": 0.43 },
          maxWorstCasePerHour: 5,
          byStack: { "dev*": { maxWorstCasePerHour: 0.1 } },
        },
      }),
    );
    const dev = readCeiling(file, "dev", new Map());
    expect(ceilingLines(dev, 10.62, 2 * DAY)).toEqual([
      'runpod-stack-cost-ceiling maxWorstCasePerHour from byStack "dev*" for stack "dev" $0.10/hour × 48 hours = $4.80; spent $10.62 (221.2%): OVER the ceiling',
    ]);
    expect(ceilingLines(readCeiling(file, "prod", new Map()), 10.62, 2 * DAY)).toEqual([
      "runpod-stack-cost-ceiling maxWorstCasePerHour $5.00/hour × 48 hours = $240.00; spent $10.62 (4.4%)",
    ]);
    fs.writeFileSync(file, JSON.stringify({ "runpod-stack-cost-ceiling": { maxWorstCasePerHour: -1 } }));
    expect(() => readCeiling(file, "dev", new Map())).toThrow(
      `--policy-config ${file}: runpod-stack-cost-ceiling.maxWorstCasePerHour: `,
    );
  });
});
