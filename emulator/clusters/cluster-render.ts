import type * as V2 from "../../sdk/schemas/v2";
import { rfc3339 } from "../billing/billing-buckets";
import type { PodRecord } from "../pods/pod-record";
import { publicIp, publicPort } from "../pods/pod-render";
import type { PodAccount } from "../pods/pod-account";
import type { ClusterRecord } from "./cluster-record";

/** The member pods of a cluster, by rank. */
export function membersOf(account: Pick<PodAccount, "pods">, clusterId: string): PodRecord[] {
  return [...account.pods.values()]
    .filter((p) => p.cluster?.id === clusterId)
    .sort((a, b) => (a.cluster?.rank ?? 0) - (b.cluster?.rank ?? 0));
}

/** The primary's public SSH address (`host:port`) while it runs with 22/tcp, as its own `ssh.direct` says. */
function sshEndpoint(primary: PodRecord): string | undefined {
  if (primary.status !== "RUNNING" || !primary.ports.includes("22/tcp")) return undefined;
  return `${publicIp(primary)}:${publicPort(primary, 22)}`;
}

/** The v2 answer (OpenAPI v2 `Cluster`). */
export function renderCluster(cluster: ClusterRecord, members: readonly PodRecord[]): V2.Cluster {
  const byStatus: Record<string, number> = {};
  for (const m of members) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
  const primary = members[0];
  const ssh = primary ? sshEndpoint(primary) : undefined;
  return {
    id: cluster.id,
    name: cluster.name,
    type: cluster.type,
    compute: cluster.compute,
    dataCenterId: cluster.dataCenterId,
    pods: { total: members.length, byStatus },
    network: { cidr: "10.65.0.0/16", vxlanId: cluster.vxlanId, vxlanPort: 4789 },
    ...(primary
      ? { primary: { podId: primary.id, status: primary.status, ...(ssh ? { sshEndpoint: ssh } : {}) } }
      : {}),
    createdAt: rfc3339(cluster.createdAt),
  };
}
