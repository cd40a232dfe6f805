import { cpuPodPricePerHour, gpuPodPricePerHour } from "../billing/prices";
import type { PlatformCatalog } from "../platform/platform-catalog";
import type { PodAccount } from "./pod-account";
import { isInterruptible, logLine, type PodRecord } from "./pod-record";

/*
 * A pod's life, the same through v1 and v2, after its creation (pod-create.ts): stop
 * to EXITED, its units back to the stock; start to RUNNING on its machine's units again (or a 400
 * when they are taken); restart; a container wipe (v1's reset and reset update, v2's container
 * PATCH); preemption of an interruptible pod; delete. Each function changes the record and stages
 * its billing; the route then `put`s (or deletes) the pod, which persists both.
 */

/**
 * Starts the pod's container (create, start, restart, a container replaced): its image, and the
 * account secrets its env refers to (`{{ RUNPOD_SECRET_<name> }}`), resolved now, so a rotated
 * value reaches the pod at its next start. A placeholder naming no secret leaves the container
 * unable to start: the pod keeps its machine (and is billed for it), v2 shows it as `ERROR`, and
 * its log names the env key and the placeholder. The log says which secrets it got, never a value.
 */
export function startContainer(account: PodAccount, pod: PodRecord, now: number): void {
  logLine(pod, now, "container", `starting container from image ${pod.image}`);
  const resolved = account.vault.resolve(pod.env);
  if (!resolved.ok) {
    pod.containerError = `container cannot start: ${resolved.problem}`;
    logLine(pod, now, "system", pod.containerError);
    return;
  }
  delete pod.containerError;
  for (const line of resolved.lines) logLine(pod, now, "system", line);
}

/** Dollars per hour of a pod running on its placement, at its cloud's price (half when interruptible). */
export function podCost(catalog: PlatformCatalog, pod: Pick<PodRecord, "gpu" | "cpu" | "cloud" | "v1">): number {
  if (pod.gpu) {
    const price = catalog.gpuType(pod.gpu.id)?.price ?? { secure: 0, community: 0 };
    return gpuPodPricePerHour(price, pod.gpu.count, pod.cloud, isInterruptible(pod));
  }
  const flavor = catalog.cpuFlavor(pod.cpu?.id ?? "");
  return cpuPodPricePerHour(flavor?.price.securePerVcpu ?? 0, pod.cpu?.vcpuCount ?? 0, isInterruptible(pod));
}

/** Opens (or ends) the pod's billed span to match its status; staged, the pod's own write persists it. */
export function meterPod(account: PodAccount, pod: PodRecord): void {
  const kind = pod.cluster !== undefined ? "cluster" : "pod";
  const resourceId = pod.cluster?.id ?? pod.id;
  if (pod.status !== "RUNNING") return account.meter.close(kind, resourceId, pod.id, "stage");
  const component = pod.gpu ? "gpu" : "cpu";
  const opening = { podId: pod.id, component, ratePerHour: pod.pricePerHour, gpuTypeId: pod.gpu?.id } as const;
  account.meter.open(kind, resourceId, opening, "stage");
}

/**
 * Starts a stopped pod on its machine's units again; false when they are taken (the caller
 * answers 400). A running pod is left alone (true).
 */
export function startPod(account: PodAccount, pod: PodRecord): boolean {
  if (pod.status === "RUNNING") return true;
  if (!account.reservations.tryReserve(pod.id, pod)) return false;
  const now = account.meter.now();
  pod.status = "RUNNING";
  pod.startedAt = now;
  pod.lastStatusChange = `Started by User: ${new Date(now).toISOString()}`;
  logLine(pod, now, "system", "pod started");
  startContainer(account, pod, now);
  meterPod(account, pod);
  return true;
}

/** Stops a running pod (its units go back to the stock when it is written); `why` is the log's words. */
export function stopPod(account: PodAccount, pod: PodRecord, why: "user" | "preempted"): void {
  if (pod.status === "EXITED") return;
  const now = account.meter.now();
  pod.status = "EXITED";
  pod.lastStatusChange =
    why === "user" ? `Exited by User: ${new Date(now).toISOString()}` : `Preempted: ${new Date(now).toISOString()}`;
  logLine(pod, now, "system", why === "user" ? "pod stopped" : "pod preempted: its interruptible GPUs were reclaimed");
  meterPod(account, pod);
}

/** Restarts a running pod's container in place (its disk kept). */
export function restartPod(account: PodAccount, pod: PodRecord): void {
  const now = account.meter.now();
  pod.startedAt = now;
  pod.lastStatusChange = `Restarted by User: ${new Date(now).toISOString()}`;
  logLine(pod, now, "system", "container restarted");
  startContainer(account, pod, now);
}

/**
 * Replaces the container, its disk wiped (v1's reset and reset update, v2's container PATCH);
 * the pod volume and a network volume keep their data. A stopped pod stays stopped.
 */
export function wipeContainer(account: PodAccount, pod: PodRecord, why: string): void {
  const now = account.meter.now();
  pod.containerDiskWipes += 1;
  pod.lastStatusChange = `${why}: container disk wiped at ${new Date(now).toISOString()}`;
  logLine(pod, now, "system", `${why}: container replaced, container disk wiped`);
  if (pod.status !== "RUNNING") return;
  pod.startedAt = now;
  startContainer(account, pod, now);
}

/** Ends a pod's billing before it is deleted (the delete releases its units). */
export function endPod(account: PodAccount, pod: PodRecord): void {
  pod.status = "EXITED";
  meterPod(account, pod);
}
