import type { UsageMeter } from "../billing/usage-meter";
import type { Collection, RecordLookup } from "../records/collection";
import type { RegistryAuthRecord } from "../registry-auths/registry-auth-record";
import type { SecretVault } from "../secrets/secret-vault";
import type { TemplateRecord } from "../templates/template-record";
import type { VolumeRecord } from "../volumes/volume-record";
import type { PodRecord } from "./pod-record";
import type { PodReservations } from "./pod-reservations";

/**
 * What pods need of the account they belong to: its pods, the records a pod names (templates,
 * network volumes, registry auths), what it is billed, the stock its pods hold, its secrets and
 * SSH keys. An account of the store (store/account.ts) is one; pods never import the store.
 */
export interface PodAccount {
  readonly userId: string;
  readonly pods: Collection<PodRecord>;
  readonly templates: RecordLookup<TemplateRecord>;
  readonly networkVolumes: RecordLookup<VolumeRecord>;
  readonly containerRegistryAuths: RecordLookup<RegistryAuthRecord>;
  readonly meter: UsageMeter;
  readonly reservations: PodReservations;
  readonly vault: SecretVault;
  /** The account's registered SSH public keys, what `startSsh` injects as `PUBLIC_KEY`. */
  registeredSshKeys(): readonly string[];
}
