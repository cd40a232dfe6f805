import * as os from "node:os";
import OpenAI from "openai";
import { Agent, request } from "undici";
import { RunpodClient } from "../sdk";
import { processCpuMs } from "./process-usage";
import { EmulatorApi, startEmulatorProcess } from "./emulator-process";
import type { BenchSection } from "./report";
import { drive, format, interleaved, median, pairedRatio, perRoundRatios } from "./stats";

/** Sizes of the OpenAI-route benchmark. */
export interface OpenAiBenchSettings {
  calls: number;
  concurrency: number;
  rounds: number;
}

/** 2,000 calls per alternative and round at concurrency 16, eight rounds (two cycles of the balanced order of four). */
export const OPENAI_FULL: OpenAiBenchSettings = { calls: 2_000, concurrency: 16, rounds: 8 };
/** `--quick`: 300 calls, two rounds. */
export const OPENAI_QUICK: OpenAiBenchSettings = { calls: 300, concurrency: 16, rounds: 2 };

const KEY = "bench-openai-key";
const MODEL = "Qwen/Qwen3-0.6B";
/** The target: the OpenAI path costs at most 1.2x `/runsync`'s time per call. */
const TARGET = 1.2;
const RUNSYNC = "/runsync, typed client";
const OPENAI = "openai chat.completions";
const PACED = "openai + client's openAiFetch";
const ROUTE = "OpenAI route, raw undici";
const WHY_MISSED =
  "Both paths run the same job, and the route itself costs no more than /runsync (the row \"OpenAI route, raw undici\", the target row below: the emulator CPU column). The difference is the client's: the openai package's own work per call (building its request and headers, its promise and logging layers, parsing the answer through a WHATWG Response) costs about three times the typed client's whole call (the client CPU column), in the benchmark's process, which shares the machine's cores with the emulator, and its extra headers cost the emulator a little more per call. It is not this repository's code to make leaner.";

/** One prompt per call: the same words, so every call does the same work. */
const messages = (i: number) => [{ role: "user" as const, content: `call ${i}: what is the capital of France?` }];
/** The chat completion every path asks for: the body the openai package sends, and the job's `openai_input`. */
const chatRequest = (i: number) => ({ model: MODEL, messages: messages(i), max_tokens: 16 });

/**
 * Benchmark 7: chat completions through the npm `openai` package against the emulated vLLM
 * worker, beside `/runsync` of the same job (`{ openai_route, openai_input }` as the route makes
 * it) through the typed client, in the same run, alternating in a balanced order.
 */
export async function runOpenAiBench(s: OpenAiBenchSettings, log: (line: string) => void): Promise<BenchSection> {
  const loadBefore = os.loadavg();
  const emulator = await startEmulatorProcess(KEY, ["--no-rate-limits"]);
  const client = new RunpodClient({ apiKey: KEY, apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl });
  const pool = new Agent({ connections: s.concurrency });
  try {
    const api = new EmulatorApi(emulator.url, KEY);
    const template = await api.call<{ id: string }>("POST", "/v1/templates", {
      name: "vllm",
      imageName: "runpod/worker-v1-vllm:v2.25.2",
      isServerless: true,
      env: { MODEL_NAME: MODEL },
    });
    // Workers up from the start and one per lane: the figure is the request path, not scaling.
    const body = {
      templateId: template.id,
      workersMin: s.concurrency,
      workersMax: s.concurrency,
      gpuTypeIds: ["NVIDIA L4"],
    };
    const id = (await api.call<{ id: string }>("POST", "/v1/endpoints", body)).id;
    const jobs = client.jobs(id);
    const routeUrl = `${jobs.openAiBaseUrl}/chat/completions`;
    const openai = new OpenAI({ apiKey: KEY, baseURL: jobs.openAiBaseUrl, maxRetries: 0 });
    // Paced to a limit above the run's rate (an endpoint whose running workers raise it, by the
    // dynamic rule), as /runsync is not paced: the row is the pacing's cost per call, not a wait
    // for the table's 200 calls a second, which the emulator (--no-rate-limits) would not ask.
    const limit = { perWindow: 100_000, concurrent: 1_000 };
    const paced = new OpenAI({
      apiKey: KEY,
      baseURL: jobs.openAiBaseUrl,
      maxRetries: 0,
      fetch: jobs.openAiFetch({ limit }),
    });
    const expected = "France? of capital the is what";
    const check = (text: string | null | undefined) => {
      if (!text?.startsWith(expected)) throw new Error(`unexpected completion ${JSON.stringify(text)}`);
    };
    const chat = (o: OpenAI) => async (i: number) =>
      check((await o.chat.completions.create(chatRequest(i))).choices[0]?.message.content);
    const alternatives: Array<{ name: string; call: (i: number) => Promise<void> }> = [
      {
        name: RUNSYNC,
        call: async (i) => {
          const input = {
            openai_route: "/v1/chat/completions",
            openai_input: chatRequest(i),
          };
          const record = await jobs.runSync<typeof input, Array<{ choices: Array<{ message: { content: string } }> }>>({
            input,
          });
          check(record.output?.[0]?.choices[0]?.message.content);
        },
      },
      { name: OPENAI, call: chat(openai) },
      { name: PACED, call: chat(paced) },
      {
        // The route's own cost: the same request the openai package sends, on undici's dispatch
        // with the JSON parsed and the text checked, and nothing else (as raw undici in section 1).
        name: ROUTE,
        call: async (i) => {
          const res = await request(routeUrl, {
            method: "POST",
            dispatcher: pool,
            headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
            body: JSON.stringify(chatRequest(i)),
          });
          const answer = (await res.body.json()) as { choices?: Array<{ message?: { content?: string } }> };
          if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${JSON.stringify(answer)}`);
          check(answer.choices?.[0]?.message?.content);
        },
      },
    ];
    const perSecond = new Map<string, number[]>(alternatives.map((a) => [a.name, []]));
    // CPU per call, in µs: this process's (the client's) and the emulator's, summed over rounds.
    const cpu = new Map(alternatives.map((a) => [a.name, { client: 0, emulator: 0, calls: 0 }]));
    for (const a of alternatives) await drive(Math.min(500, s.calls), s.concurrency, a.call); // warm-up
    for (let round = 0; round < s.rounds; round++) {
      for (const a of interleaved(alternatives, round)) {
        (globalThis as { gc?: () => void }).gc?.();
        const clientBefore = process.cpuUsage();
        const emulatorBefore = processCpuMs(emulator.pid);
        const r = await drive(s.calls, s.concurrency, a.call);
        const used = process.cpuUsage(clientBefore);
        const spent = cpu.get(a.name)!;
        spent.client += used.user + used.system;
        spent.emulator += (processCpuMs(emulator.pid) - emulatorBefore) * 1000;
        spent.calls += s.calls;
        if (r.errors > 0) throw new Error(`${a.name}: ${r.errors} calls failed; first: ${String(r.firstError)}`);
        const cps = (s.calls * 1000) / r.ms;
        perSecond.get(a.name)!.push(cps);
        log(`openai round ${round + 1}/${s.rounds} ${a.name}: ${format.int(cps)} calls/s`);
      }
    }
    return section(s, perSecond, cpu, loadBefore, os.loadavg());
  } finally {
    await client.close();
    await pool.close();
    await emulator.stop();
  }
}

function section(
  s: OpenAiBenchSettings,
  perSecond: Map<string, number[]>,
  cpu: Map<string, { client: number; emulator: number; calls: number }>,
  loadBefore: number[],
  loadAfter: number[],
): BenchSection {
  const runsync = perSecond.get(RUNSYNC)!;
  // Time per call relative to /runsync's: /runsync's calls per second over the other's, per round.
  const costRatio = (name: string) => pairedRatio(runsync, perSecond.get(name)!);
  const cpuPerCall = (name: string) => {
    const c = cpu.get(name)!;
    return { client: c.client / c.calls, emulator: c.emulator / c.calls, total: (c.client + c.emulator) / c.calls };
  };
  const rows = [...perSecond.entries()].map(([name, cps]) => [
    name,
    format.int(median(cps)),
    format.ms((1000 * s.concurrency) / median(cps)),
    name === RUNSYNC ? "1.00x" : format.ratio(costRatio(name)),
    format.int(cpuPerCall(name).client),
    format.int(cpuPerCall(name).emulator),
    format.ratio(cpuPerCall(name).total / cpuPerCall(RUNSYNC).total),
  ]);
  const ratioOf = (name: string) => ({
    ratio: costRatio(name),
    rounds: perRoundRatios(runsync, perSecond.get(name)!)
      .map((r) => r.toFixed(2))
      .join(", "),
  });
  const paced = ratioOf(PACED);
  const plain = ratioOf(OPENAI);
  const route = ratioOf(ROUTE);
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
  return {
    title: "8. OpenAI-compatible route",
    method: [
      `${format.int(s.calls)} chat completions per alternative and round, ${s.concurrency} at a time, ${s.rounds} rounds in a balanced order (bench/stats.ts \`interleaved\`), after a warm-up; the emulator runs in its own process with \`--no-rate-limits\` and ${s.concurrency} workers of the \`runpod/worker-v1-vllm\` handler up from the start.`,
      "`/runsync` sends the very job the OpenAI route makes (`{ openai_route, openai_input }`) through the typed client; the `openai` package (npm) sends `chat.completions.create` to `client.jobs(id).openAiBaseUrl`, once with its own fetch and once with the client's paced `openAiFetch({ limit })`, its limit above the run's rate (as the dynamic rule raises it for an endpoint with many running workers; /runsync is not paced either). \"OpenAI route, raw undici\" sends the openai package's request to the same route with `undici.request` on a keep-alive pool of the same size, parsing the JSON and nothing else: the route's own cost, with no more client work per call than /runsync's. Every answer's text is checked.",
      "Time per call is the wall time of a round over its calls at a fixed concurrency; the ratio is the median over rounds of /runsync's calls per second over the alternative's, in the same round.",
      "CPU per call: user + system time of the benchmark's process (the client) and of the emulator's (/proc/<pid>/stat) over all rounds, per call. On a machine busier than its cores, where every process waits for one, the CPU a call costs decides its time; the CPU ratio moves less with the load than the time ratio.",
    ],
    tables: [
      {
        title: `Chat completions against the emulated vLLM worker (${s.concurrency} concurrent)`,
        columns: [
          "path",
          "calls/s",
          "time per call",
          "time vs /runsync",
          "client CPU µs/call",
          "emulator CPU µs/call",
          "CPU vs /runsync",
        ],
        rows,
      },
    ],
    targets: [
      {
        benchmark: "openai",
        target: `openai + openAiFetch (docs/client.md) <= ${TARGET}x /runsync's time per call`,
        measured: `${format.ratio(paced.ratio)} (rounds: ${paced.rounds})`,
        met: paced.ratio <= TARGET,
        whyMissed: WHY_MISSED,
      },
      {
        benchmark: "openai",
        target: `openai with its default fetch <= ${TARGET}x /runsync's time per call`,
        measured: `${format.ratio(plain.ratio)} (rounds: ${plain.rounds})`,
        met: plain.ratio <= TARGET,
        whyMissed: `${WHY_MISSED} With its default fetch the openai package sends through the platform's fetch, about three times the client CPU per call of undici's dispatch (section 1, global fetch against raw undici); hand it \`client.jobs(id).openAiFetch()\`.`,
      },
      {
        benchmark: "openai",
        target: `the OpenAI route itself (raw undici, no more client work than /runsync) <= ${TARGET}x /runsync's time per call`,
        measured: `${format.ratio(route.ratio)} (rounds: ${route.rounds})`,
        met: route.ratio <= TARGET,
        whyMissed:
          "The emulator's work per call on the route against /runsync's is the emulator CPU column; the rest is the client's.",
      },
    ],
    notes: [
      `Machine load (1-minute average) before / after: ${load(loadBefore.slice(0, 1))} / ${load(loadAfter.slice(0, 1))}; ${os.cpus().length} cores.`,
    ],
  };
}
