import { VolumeS3Client } from "../sdk/s3/volume-s3-client";
import { planSync } from "../sdk/s3/sync-plan";
import { runSync } from "../sdk/s3/sync-run";

/*
 * One upload of the volume files benchmark (bench/volume-files-bench.ts) in a process of its own,
 * so its peak memory is the uploader's alone: `node volume-upload-child.js PLAN_JSON` uploads a
 * folder (as VolumeFiles would: plan, then sync) or one file, and prints `{ "ms": ... }`, the
 * upload's own time, on its last line. The S3 secret comes in the environment, never in argv.
 */

interface Plan {
  s3Url: string;
  accessKeyId: string;
  dataCenterId: string;
  volumeId: string;
  putObjectLimit: number;
  /** A folder to sync under `prefix`, or one file to put at `key`. */
  folder?: string;
  prefix?: string;
  file?: string;
  key?: string;
}

async function main(): Promise<void> {
  const plan = JSON.parse(process.argv[2]!) as Plan;
  const client = new VolumeS3Client({
    s3Url: plan.s3Url,
    s3AccessKeyId: plan.accessKeyId,
    s3SecretAccessKey: process.env.BENCH_S3_SECRET,
    putObjectLimit: plan.putObjectLimit,
  });
  const volume = { dataCenterId: plan.dataCenterId, volumeId: plan.volumeId };
  const started = performance.now();
  if (plan.folder !== undefined) {
    const sync = await planSync({ source: { folder: plan.folder }, prefix: plan.prefix });
    await runSync(client, volume, sync, undefined);
  } else {
    await client.putFile(volume, plan.key!, plan.file!);
  }
  const ms = performance.now() - started;
  client.close();
  process.stdout.write(`${JSON.stringify({ ms })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
