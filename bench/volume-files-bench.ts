import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_SECRET_ACCESS_KEY } from "../emulator/s3/s3-options";
import { REPO_ROOT, runProvideScript } from "../scripts/pulumi-cli";
import { EmulatorApi, startEmulatorProcess } from "./emulator-process";
import type { BenchSection } from "./report";
import { hashBench, type Measured, measured } from "./volume-files-probes";
import { previewBench, type PreviewRun } from "./volume-files-preview";
import { interleaved, median, pairedRatio } from "./stats";

/** A figure with `digits` decimals. */
const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/** Sizes of the volume files benchmark. */
export interface VolumeFilesBenchSettings {
  smallFiles: number;
  smallFileBytes: number;
  /** The emulator's PutObject limit for the run (`--s3-put-limit`); the large file is `bigMultiple` times it. */
  putLimitBytes: number;
  bigMultiple: number;
  rounds: number;
  /** Files the hashing row hashes. */
  hashFiles: number;
}

/** 200 files of 64 KiB and one of 40 MiB (five times an 8 MiB limit), five rounds; 10,000 files hashed. */
export const VOLUMES_FULL: VolumeFilesBenchSettings = {
  smallFiles: 200,
  smallFileBytes: 64 * 1024,
  putLimitBytes: 8 * 2 ** 20,
  bigMultiple: 5,
  rounds: 5,
  hashFiles: 10_000,
};
/** `--quick`: one round, 2,000 files hashed. */
export const VOLUMES_QUICK: VolumeFilesBenchSettings = { ...VOLUMES_FULL, rounds: 1, hashFiles: 2_000 };

const KEY = "bench-volumes-key";
const OURS = "VolumeS3Client (sync of the folder)";
const AWS = "aws s3 cp";
const MEMORY_TARGET_MIB = 150;

/**
 * Benchmark 10: uploads to a volume through the emulator's S3-compatible API (an emulator process
 * with an 8 MiB PutObject limit): 200 small files, then one file five times the limit (multipart),
 * by this package's client (a node process syncing the folder, or putting the file, as the
 * VolumeFiles resource does) beside the AWS CLI v1 (`aws s3 cp --recursive`, `aws s3 cp`), in a
 * balanced order each round, each in its own process so its peak memory is its own; and the time
 * to hash 10,000 files once (what an unchanged preview of as many files reads).
 */
export async function runVolumeFilesBench(
  s: VolumeFilesBenchSettings,
  log: (line: string) => void,
): Promise<BenchSection> {
  log("providing the AWS CLI (scripts/provide-venv.sh, the integration tier's clients)");
  const venv = await runProvideScript("provide-venv.sh", [
    "--name",
    "clients",
    "--requirements",
    path.join(REPO_ROOT, "test/integration/clients/requirements.txt"),
    "--import",
    "runpod,openai,schemathesis,boto3,awscli",
    "--min-python",
    "3.11",
  ]);
  const work = await mkdtemp(path.join(os.tmpdir(), "bench-volumes-"));
  const emulator = await startEmulatorProcess(KEY, ["--no-rate-limits", "--s3-put-limit", String(s.putLimitBytes)]);
  try {
    const small = path.join(work, "small");
    await mkdir(small);
    for (let i = 0; i < s.smallFiles; i++)
      await writeFile(path.join(small, `f${i}.bin`), Buffer.alloc(s.smallFileBytes, i % 251));
    const big = path.join(work, "big.bin");
    await writeFile(big, Buffer.alloc(s.putLimitBytes * s.bigMultiple, 7));
    const api = new EmulatorApi(emulator.url, KEY);
    const volumeId = (
      await api.call<{ id: string }>("POST", "/v1/networkvolumes", { name: "bench", size: 10, dataCenterId: "EU-RO-1" })
    ).id;
    const s3Url = `${emulator.url}/s3api-{dc}`;
    const endpoint = `${emulator.url}/s3api-eu-ro-1`;
    const mib = s.putLimitBytes / 2 ** 20;
    const awsConfig = path.join(work, "aws-config");
    // The CLI's defaults (8 MiB threshold and parts, 10 requests at once), its threshold at the emulator's limit.
    await writeFile(
      awsConfig,
      `[default]\ns3 =\n  addressing_style = path\n  multipart_threshold = ${mib}MB\n  multipart_chunksize = ${mib}MB\n`,
    );
    const awsEnv = {
      AWS_ACCESS_KEY_ID: DEFAULT_S3_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: DEFAULT_S3_SECRET_ACCESS_KEY,
      AWS_DEFAULT_REGION: "EU-RO-1",
      AWS_CONFIG_FILE: awsConfig,
      AWS_SHARED_CREDENTIALS_FILE: path.join(work, "none"),
    };
    const aws = (...args: string[]) =>
      measured(path.join(venv, "bin", "aws"), ["--endpoint-url", endpoint, ...args], awsEnv);
    const ours = (plan: Record<string, unknown>) =>
      measured(
        process.execPath,
        [
          path.join(__dirname, "volume-upload-child.js"),
          JSON.stringify({
            s3Url,
            accessKeyId: DEFAULT_S3_ACCESS_KEY_ID,
            dataCenterId: "EU-RO-1",
            volumeId,
            putObjectLimit: s.putLimitBytes,
            ...plan,
          }),
        ],
        { BENCH_S3_SECRET: DEFAULT_S3_SECRET_ACCESS_KEY },
      );
    const runs = {
      ours: { small: [] as Measured[], big: [] as Measured[] },
      aws: { small: [] as Measured[], big: [] as Measured[] },
      awsStart: [] as number[],
    };
    for (let round = 0; round < s.rounds; round++) {
      for (const who of interleaved(["ours", "aws"] as const, round)) {
        log(`10. volume files: round ${round + 1}/${s.rounds}, ${who === "ours" ? OURS : AWS}`);
        if (who === "ours") {
          runs.ours.small.push(await ours({ folder: small, prefix: "ours/small" }));
          runs.ours.big.push(await ours({ file: big, key: "ours/big.bin" }));
        } else {
          runs.aws.small.push(await aws("s3", "cp", "--recursive", "--quiet", small, `s3://${volumeId}/aws/small/`));
          runs.aws.big.push(await aws("s3", "cp", "--quiet", big, `s3://${volumeId}/aws/big.bin`));
          // The CLI's own start, one request: what its figures hold besides the transfer.
          runs.awsStart.push((await aws("s3api", "head-bucket", "--bucket", volumeId)).ms);
        }
      }
    }
    const hashing = await hashBench(work, s.hashFiles);
    // The same files as one VolumeFiles, on a volume of their own: its unchanged preview.
    const previewVolume = (
      await api.call<{ id: string }>("POST", "/v1/networkvolumes", {
        name: "preview",
        size: 10,
        dataCenterId: "EU-RO-1",
      })
    ).id;
    const preview = await previewBench(emulator.url, KEY, previewVolume, path.join(work, "hash"), s.rounds, log);
    return section(s, runs, hashing, preview);
  } finally {
    await emulator.stop();
    await rm(work, { recursive: true, force: true });
  }
}

function section(
  s: VolumeFilesBenchSettings,
  runs: { ours: Record<"small" | "big", Measured[]>; aws: Record<"small" | "big", Measured[]>; awsStart: number[] },
  hashing: { firstMs: number; cachedMs: number; reads: number; count: number },
  preview: PreviewRun,
): BenchSection {
  const previewMs = (kind: keyof PreviewRun["ms"]) => median(preview.ms[kind]);
  const budget = 1.2 * previewMs("noop") + hashing.firstMs;
  const smallBytes = s.smallFiles * s.smallFileBytes;
  const bigBytes = s.putLimitBytes * s.bigMultiple;
  const mibPerS = (bytes: number, ms: number) => fixed(bytes / 2 ** 20 / (ms / 1000), 1);
  const ms = (list: Measured[]) => list.map((m) => m.ms);
  // The CLI's start varies with the machine's load more than anything here: its median over rounds.
  const awsStart = median(runs.awsStart);
  const net = (list: Measured[]) => list.map((m) => m.ms - awsStart);
  const inProcess = (list: Measured[]) =>
    list.map((m) => (JSON.parse(m.stdout.trim().split("\n").pop()!) as { ms: number }).ms);
  const rows: string[][] = [];
  const ratios: Record<string, number> = {};
  const transfer: Record<string, number> = {};
  for (const [what, key, bytes] of [
    [`${s.smallFiles} files of ${s.smallFileBytes / 1024} KiB`, "small", smallBytes],
    [`1 file of ${bigBytes / 2 ** 20} MiB (${s.bigMultiple} parts)`, "big", bigBytes],
  ] as const) {
    const oursMs = ms(runs.ours[key]);
    const awsMs = ms(runs.aws[key]);
    ratios[key] = pairedRatio(awsMs, oursMs);
    transfer[key] = pairedRatio(net(runs.aws[key]), inProcess(runs.ours[key]));
    rows.push([
      what,
      OURS,
      fixed(median(oursMs), 0),
      fixed(median(inProcess(runs.ours[key])), 0),
      mibPerS(bytes, median(oursMs)),
      fixed(Math.max(...runs.ours[key].map((m) => m.peakRssMiB)), 0),
      `${fixed(ratios[key]!, 2)}x`,
      `${fixed(transfer[key]!, 2)}x`,
    ]);
    rows.push([
      what,
      AWS,
      fixed(median(awsMs), 0),
      fixed(median(net(runs.aws[key])), 0),
      mibPerS(bytes, median(awsMs)),
      fixed(Math.max(...runs.aws[key].map((m) => m.peakRssMiB)), 0),
      "1.00x",
      "1.00x",
    ]);
  }
  const peak = Math.max(...runs.ours.big.map((m) => m.peakRssMiB));
  const why =
    "The transfer is the emulator's (one process writing every byte to disk) more than either client's; see the table's columns for where the time went.";
  return {
    title: "10. Volume files over the S3-compatible API",
    method: [
      `An emulator process (\`--s3-put-limit ${s.putLimitBytes}\`, ${s.putLimitBytes / 2 ** 20} MiB) on loopback; one 10 GB volume in EU-RO-1. Each round uploads ${s.smallFiles} files of ${s.smallFileBytes / 1024} KiB, then one file of ${bigBytes / 2 ** 20} MiB, with each alternative, in a balanced order, each upload a process of its own: this package's client in a node process (the folder planned and synced as VolumeFiles does: hashed, then 16 files at a time; the large file in ${s.putLimitBytes / 2 ** 20} MiB parts, 4 at a time), and the AWS CLI v1 from PyPI (awscli 1.46.3: \`aws s3 cp --recursive\`, \`aws s3 cp\`, its defaults of 10 requests at once and ${s.putLimitBytes / 2 ** 20} MiB parts at the same threshold). ${s.rounds} rounds; medians.`,
      "Wall time is the whole command, process start to exit, as a user waits for it: the targets' ratio is the CLI's wall time over this package's, paired per round (above 1 this package is faster). The upload columns try to leave the processes' start out: this package's own measurement inside its process (from before the plan, the AWS SDK's loading included, to the last answer), and the CLI's wall time less its start (an `aws s3api head-bucket` of one request, its median over the rounds). The CLI's start (Python importing the CLI) is most of its wall time and swings with the machine's load, so the transfer-alone ratio is the rougher figure.",
      `Peak memory is each process's VmHWM (peak resident set), sampled from /proc every 20 ms. Hashing: ${hashing.count} files of 1 KiB in 100 folders, planned with a fresh hash cache (listed, each file read once through SHA-256 and MD5), then planned again in the same process (unchanged: no file read again).`,
      `Preview: the same ${hashing.count} files as one VolumeFiles on a volume of their own (bench/programs/volume-files-stack, deployed once), beside a stack of one no-op dynamic resource and one of a no-op resource given the folder as a FileArchive input; each stack's unchanged \`pulumi preview\` (a CLI process each, the dynamic provider host included) ${s.rounds} times in a balanced order; the emulator's request count (management and S3) is read around each VolumeFiles preview. The target's budget is 1.2 times the no-op preview plus the hashing row above.`,
    ],
    tables: [
      {
        title: "Uploads",
        columns: [
          "what",
          "client",
          "wall ms",
          "upload ms",
          "MiB/s (wall)",
          "peak RSS MiB",
          "vs aws (wall)",
          "vs aws (upload)",
        ],
        textColumns: 2,
        rows,
      },
      {
        title: `Hashing ${hashing.count} files`,
        columns: ["step", "ms", "files read"],
        rows: [
          ["plan with a fresh cache (each file read once)", fixed(hashing.firstMs, 0), String(hashing.reads)],
          ["the same plan again in the process (unchanged)", fixed(hashing.cachedMs, 0), "0 more"],
        ],
      },
      {
        title: `Unchanged pulumi preview, one resource (${s.rounds} rounds, medians)`,
        columns: ["stack", "preview ms", "requests"],
        rows: [
          ["a no-op dynamic resource", fixed(previewMs("noop"), 0), "-"],
          [
            `a no-op resource given the ${hashing.count} files as a FileArchive`,
            fixed(previewMs("noop-archive"), 0),
            "-",
          ],
          [
            `a VolumeFiles of the ${hashing.count} files`,
            fixed(previewMs("volume-files"), 0),
            String(preview.requests),
          ],
        ],
      },
    ],
    targets: [
      {
        benchmark: "volume files",
        target: `${s.smallFiles} small files: throughput >= 1.0x aws s3 cp --recursive`,
        measured: `${fixed(ratios.small!, 2)}x (upload alone ${fixed(transfer.small!, 2)}x)`,
        met: ratios.small! >= 1,
        whyMissed: why,
      },
      {
        benchmark: "volume files",
        target: `one ${s.bigMultiple}x-limit file: throughput >= 1.0x aws s3 cp`,
        measured: `${fixed(ratios.big!, 2)}x (upload alone ${fixed(transfer.big!, 2)}x)`,
        met: ratios.big! >= 1,
        whyMissed: why,
      },
      {
        benchmark: "volume files",
        target: `unchanged preview of a ${hashing.count}-file VolumeFiles: 0 requests, <= 1.2x a no-op resource's preview + hashing the files once`,
        measured: `${fixed(previewMs("volume-files"), 0)} ms <= ${fixed(budget, 0)} ms (1.2 x ${fixed(previewMs("noop"), 0)} + ${fixed(hashing.firstMs, 0)}), ${preview.requests} requests`,
        met: previewMs("volume-files") <= budget && preview.requests === 0,
        whyMissed:
          "The engine's own hashing of the archive (see the no-op resource given the same FileArchive) is in the VolumeFiles' time and not in the no-op's.",
      },
      {
        benchmark: "volume files",
        target: `one ${s.bigMultiple}x-limit file: peak RSS of the uploading process <= ${MEMORY_TARGET_MIB} MiB`,
        measured: `${fixed(peak, 0)} MiB`,
        met: peak <= MEMORY_TARGET_MIB,
        whyMissed: "The node process's own baseline with the AWS SDK loaded is most of it.",
      },
    ],
    notes: [
      `hashing ${hashing.count} files once took ${fixed(hashing.firstMs, 0)} ms; the VolumeFiles' first up (every file uploaded) took ${fixed(preview.createMs, 0)} ms`,
      "an unchanged preview of a VolumeFiles reads no file itself: the engine hashes the archive when the program registers the resource (the no-op resource given the same FileArchive pays that too), and the provider compares that hash with the one in state",
    ],
  };
}
