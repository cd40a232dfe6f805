import { parseArgs } from "node:util";
import type { CapacitySettings } from "./capacity/capacity";
import type { FaultRule } from "./faults/fault-rules";
import { parseQuotaSpec } from "./limits/management-quota";
import { ADDITIONAL_VALUE_OPTIONS, additionalValueProblem } from "./platform/platform-options";
import type { EmulatorOptions } from "./options";
import { parseByteSize, parseS3KeySpec } from "./s3/s3-options";

/** Usage of `runpod-iac emulator`. */
export const USAGE = `Usage: runpod-iac emulator [options]

  --host HOST                 address to listen on (default 127.0.0.1)
  --port PORT                 port to listen on, 0 for any free port (default 8787)
  --api-key KEY               accepted bearer key, repeatable; each key is its own account
                              (default: the documented key "emulator-key")
  --state-file FILE           persist volumes, endpoints, templates, registry auths, pods,
                              clusters, SSH keys and billed usage in FILE (atomic writes;
                              registry passwords only as hashes)
  --handlers DIR              load handler files NAME.js / NAME.mjs as templates NAME
  --time-scale N              one real ms counts as N platform ms (default 1; 0 = manual clock,
                              moved by POST /_emulator/clock/advance)
  --worker-boot-ms MS         how long a serverless worker pulls its image and boots before it
                              takes work, in platform ms (default 2000; 0 = at once)
  --no-rate-limits            turn the platform's rate limits off
  --rate-limit-multiplier X   scale every base rate limit (default 1)
  --requests-per-worker N     requests_per_worker of the dynamic rate-limit rule (default 10)
  --management-quota SPEC     management API v2's per-user quota: comma-separated NAME=QUOTA
                              (NAME second, minute, hour or day) or NAME=QUOTA/SECONDS for a
                              window of any length (default "minute=60,hour=3000,day=50000")
  --no-management-quota       turn management API v2's quota off (no RateLimit headers, no 429)
  --fault-route PATTERN       route the --fault-* flags apply to, e.g. "GET /v2" (default: all)
  --fault-latency-ms MS       added latency
  --fault-jitter-ms MS        up to this much more latency, random
  --fault-error-rate R        share of requests answered 500 (0..1)
  --fault-429-rate R          share of requests answered 429 (0..1)
  --fault-403-rate R          share of requests answered 403, as for a key that lacks the
                              operation's scope (0..1)
  --fault-drop-rate R         share of connections dropped without an answer (0..1)
  --fault-lost-response-rate R
                              share of requests handled (their effect kept) whose answer is then
                              lost: the connection is dropped instead (0..1)
  --fault-hold-response-ms MS hold the answer of each handled request this long (effect kept)
  --seed N                    seed of the fault injection's random choices, 0..2147483647
                              (default: a fresh one, printed at start so a run can be replayed)
  --public-url URL            base URL used in image_url (default: the listening URL)
  --add-gpu-type ID           a GPU type the platform sells besides this release's list,
                              repeatable (e.g. one added after this release)
  --add-data-center ID        a data center besides this release's list, repeatable
  --add-cuda-version X.Y      a CUDA version besides this release's list, repeatable
  --add-cpu-flavor ID         a CPU flavor besides this release's list, repeatable
  --gpu-pool ID=POOL          the serverless pool of a GPU type (an added one, or to move one),
                              repeatable, e.g. --gpu-pool "NVIDIA B300=BLACKWELL_288"
  --gpu-stock N | "DC:TYPE=N"  GPUs of each type in each data center (a number, default 16), or
                              of one type in one data center, repeatable,
                              e.g. --gpu-stock 4 --gpu-stock "EU-RO-1:NVIDIA L4=2"
  --cpu-stock N | "DC:FLAVOR=N"
                              vCPUs of each CPU flavor in each data center (default 512), or of
                              one flavor in one data center, repeatable
  --large-machine-share R     of each data center's GPUs of a type, the share in large machines
                              (16 vCPUs, 125 GB of RAM per GPU; the rest in standard ones: 8,
                              62 GB), what pods' placement filters choose among (0..1, default 0.25)
  --preemption-rate R         chance per platform hour that a running interruptible pod is
                              preempted (0..1, default 0), drawn from the seeded stream
  --s3-key API_KEY=ACCESS_KEY_ID:SECRET
                              an S3 key of the account of API_KEY for the volumes' S3-compatible
                              API (/s3api-<dc>), repeatable (default: "user_emulator" with secret
                              "rps_emulator_secret" for the first API key's account)
  --s3-put-limit SIZE         PutObject bodies must be smaller than SIZE (bytes, or with KB, MB,
                              GB, KiB, MiB, GiB; default 500MB, the platform's); larger files go
                              multipart, in parts of at most 500 MB
  --page-size N               items per page of management API v2's lists when a request
                              gives no limit (1..1000, default 1000, the platform's)
  --stream-shape SHAPE        what /stream answers: "object" ({ status, stream }, default) or
                              "array" (the bare array of chunks the platform's docs show)
  --log                       log every request
  --help                      show this help
`;

/** A command-line mistake: print it with the usage, exit 2. */
export class CliUsageError extends Error {}

function number(
  flag: string,
  raw: string | undefined,
  check: (n: number) => boolean,
  rule: string,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !check(n)) throw new CliUsageError(`--${flag} ${raw}: ${rule}`);
  return n;
}

const rate = (n: number) => n >= 0 && n <= 1;
const whole = (n: number) => Number.isInteger(n) && n >= 0;

/** Parses the flags after `emulator` into `startEmulator` options. */
export function parseCliArgs(args: string[]): { help: boolean; options: EmulatorOptions } {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(args).values;
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const options: EmulatorOptions = {
    host: values.host,
    port: number("port", values.port, (n) => whole(n) && n <= 65535, "must be a port number (0..65535)"),
    apiKeys: values["api-key"],
    stateFile: values["state-file"],
    handlersDir: values.handlers,
    timeScale: number("time-scale", values["time-scale"], (n) => n >= 0, "must be a number >= 0"),
    workerBootMs: number("worker-boot-ms", values["worker-boot-ms"], whole, "must be a whole number of ms"),
    log: values.log,
    publicUrl: values["public-url"],
    seed: number("seed", values.seed, (n) => whole(n) && n <= 2147483647, "must be a whole number (0..2147483647)"),
  };
  const multiplier = number("rate-limit-multiplier", values["rate-limit-multiplier"], (n) => n > 0, "must be > 0");
  const perWorker = number("requests-per-worker", values["requests-per-worker"], whole, "must be a whole number");
  options.rateLimits = values["no-rate-limits"]
    ? false
    : {
        ...(multiplier !== undefined ? { multiplier } : {}),
        ...(perWorker !== undefined ? { requestsPerWorker: perWorker } : {}),
      };
  if (values["no-management-quota"] && values["management-quota"] !== undefined) {
    throw new CliUsageError("--management-quota and --no-management-quota: give one or the other");
  }
  if (values["no-management-quota"]) options.managementQuota = false;
  else if (values["management-quota"] !== undefined) {
    try {
      options.managementQuota = parseQuotaSpec(values["management-quota"]);
    } catch (error) {
      throw new CliUsageError(`--management-quota ${(error as Error).message}`);
    }
  }
  const fault: FaultRule = {
    route: values["fault-route"] ?? "*",
    latencyMs: number("fault-latency-ms", values["fault-latency-ms"], whole, "must be a whole number of ms"),
    jitterMs: number("fault-jitter-ms", values["fault-jitter-ms"], whole, "must be a whole number of ms"),
    errorRate: number("fault-error-rate", values["fault-error-rate"], rate, "must be between 0 and 1"),
    rateLimitRate: number("fault-429-rate", values["fault-429-rate"], rate, "must be between 0 and 1"),
    forbiddenRate: number("fault-403-rate", values["fault-403-rate"], rate, "must be between 0 and 1"),
    dropRate: number("fault-drop-rate", values["fault-drop-rate"], rate, "must be between 0 and 1"),
    lostResponseRate: number(
      "fault-lost-response-rate",
      values["fault-lost-response-rate"],
      rate,
      "must be between 0 and 1",
    ),
    holdResponseMs: number(
      "fault-hold-response-ms",
      values["fault-hold-response-ms"],
      whole,
      "must be a whole number of ms",
    ),
  };
  if (Object.entries(fault).some(([k, v]) => k !== "route" && v !== undefined)) options.faults = [fault];
  for (const [kind, { option, flag }] of Object.entries(ADDITIONAL_VALUE_OPTIONS)) {
    for (const value of values[flag] ?? []) {
      const problem = additionalValueProblem(kind as keyof typeof ADDITIONAL_VALUE_OPTIONS, value);
      if (problem) throw new CliUsageError(`--${flag} ${JSON.stringify(value)}: ${problem}`);
    }
    options[option] = values[flag];
  }
  if (values["gpu-pool"]) {
    const pools: Record<string, string> = {};
    for (const entry of values["gpu-pool"]) {
      const at = entry.lastIndexOf("=");
      const id = entry.slice(0, at).trim();
      const pool = entry.slice(at + 1).trim();
      if (at < 0 || id === "" || pool === "") {
        throw new CliUsageError(
          `--gpu-pool ${JSON.stringify(entry)}: must be GPU_TYPE_ID=POOL, e.g. "NVIDIA B300=BLACKWELL_288"`,
        );
      }
      pools[id] = pool;
    }
    options.gpuPools = pools;
  }
  const capacity = stockOptions(values["gpu-stock"], values["cpu-stock"]);
  const share = number("large-machine-share", values["large-machine-share"], rate, "must be between 0 and 1");
  if (capacity || share !== undefined)
    options.capacity = { ...capacity, ...(share === undefined ? {} : { largeMachineShare: share }) };
  const s3 = s3Options(values["s3-key"], values["s3-put-limit"]);
  if (s3) options.s3 = s3;
  options.preemptionRate = number("preemption-rate", values["preemption-rate"], rate, "must be between 0 and 1");
  options.pageSize = number(
    "page-size",
    values["page-size"],
    (n) => Number.isInteger(n) && n >= 1 && n <= 1000,
    "must be a whole number from 1 to 1000",
  );
  const shape = values["stream-shape"];
  if (shape !== undefined && shape !== "object" && shape !== "array") {
    throw new CliUsageError(`--stream-shape ${JSON.stringify(shape)}: must be "object" or "array"`);
  }
  options.streamShape = shape;
  for (const key of Object.keys(options) as (keyof EmulatorOptions)[]) {
    if (options[key] === undefined) delete options[key];
  }
  return { help: values.help === true, options };
}

/**
 * The stock flags: a bare number sets the stock of every GPU type (or CPU flavor) in every data
 * center; `DC:RESOURCE=N` the stock of one resource in one data center.
 */
function stockOptions(gpu: string[] | undefined, cpu: string[] | undefined): Partial<CapacitySettings> | undefined {
  if (!gpu && !cpu) return undefined;
  const settings: Partial<CapacitySettings> = {};
  const stock: Record<string, Record<string, number>> = {};
  const read = (flag: string, entry: string, setAll: (n: number) => void) => {
    if (/^\s*\d+\s*$/.test(entry)) return setAll(Number(entry));
    const m = /^([^:]+):(.+)=\s*(\d+)\s*$/.exec(entry);
    if (!m) {
      throw new CliUsageError(
        `--${flag} ${JSON.stringify(entry)}: must be a whole number or DATA_CENTER:${flag === "gpu-stock" ? "GPU_TYPE" : "CPU_FLAVOR"}=N, e.g. "EU-RO-1:${flag === "gpu-stock" ? "NVIDIA L4" : "cpu3c"}=2"`,
      );
    }
    const dc = m[1]!.trim();
    (stock[dc] ??= {})[m[2]!.trim()] = Number(m[3]);
  };
  for (const entry of gpu ?? []) read("gpu-stock", entry, (n) => (settings.gpusPerType = n));
  for (const entry of cpu ?? []) read("cpu-stock", entry, (n) => (settings.vcpusPerFlavor = n));
  if (Object.keys(stock).length) settings.stock = stock;
  return settings;
}

/** The S3 flags (`--s3-key`, `--s3-put-limit`); a malformed one never echoes a secret. */
function s3Options(keys: string[] | undefined, putLimit: string | undefined): EmulatorOptions["s3"] {
  if (!keys && putLimit === undefined) return undefined;
  const s3: NonNullable<EmulatorOptions["s3"]> = {};
  try {
    if (keys) s3.keys = keys.map(parseS3KeySpec);
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (putLimit !== undefined) {
    const bytes = parseByteSize(putLimit);
    if (bytes === undefined)
      throw new CliUsageError(`--s3-put-limit ${putLimit}: must be a size above 0, e.g. 8MiB or 500MB`);
    s3.putObjectLimit = bytes;
  }
  return s3;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "api-key": { type: "string", multiple: true },
      "state-file": { type: "string" },
      handlers: { type: "string" },
      "time-scale": { type: "string" },
      "worker-boot-ms": { type: "string" },
      "no-rate-limits": { type: "boolean" },
      "rate-limit-multiplier": { type: "string" },
      "requests-per-worker": { type: "string" },
      "management-quota": { type: "string" },
      "no-management-quota": { type: "boolean" },
      "fault-route": { type: "string" },
      "fault-latency-ms": { type: "string" },
      "fault-jitter-ms": { type: "string" },
      "fault-error-rate": { type: "string" },
      "fault-429-rate": { type: "string" },
      "fault-403-rate": { type: "string" },
      "fault-drop-rate": { type: "string" },
      "fault-lost-response-rate": { type: "string" },
      "fault-hold-response-ms": { type: "string" },
      "public-url": { type: "string" },
      "add-gpu-type": { type: "string", multiple: true },
      "add-data-center": { type: "string", multiple: true },
      "add-cuda-version": { type: "string", multiple: true },
      "add-cpu-flavor": { type: "string", multiple: true },
      "gpu-pool": { type: "string", multiple: true },
      "gpu-stock": { type: "string", multiple: true },
      "cpu-stock": { type: "string", multiple: true },
      "large-machine-share": { type: "string" },
      "preemption-rate": { type: "string" },
      "s3-key": { type: "string", multiple: true },
      "s3-put-limit": { type: "string" },
      "page-size": { type: "string" },
      "stream-shape": { type: "string" },
      seed: { type: "string" },
      log: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
