import type { Account } from "../store/account";
import type { EmulatorStore } from "../store/emulator-store";
import type { S3Settings } from "../s3/s3-options";
import type { VolumeFiles } from "../s3/volume-files";

/** What the S3 routes work on: the settings, the volumes' files and the accounts' S3 keys. */
export class S3Service {
  private readonly byAccessKey = new Map<string, { account: Account; secret: string }>();

  constructor(
    readonly settings: S3Settings,
    readonly files: VolumeFiles,
    store: EmulatorStore,
  ) {
    for (const key of settings.keys) {
      const account = store.accountForKey(key.apiKey);
      if (account) this.byAccessKey.set(key.accessKeyId, { account, secret: key.secretAccessKey });
    }
  }

  /** The account and secret of an access key id, or undefined for an unknown one. */
  keyOf(accessKeyId: string): { account: Account; secret: string } | undefined {
    return this.byAccessKey.get(accessKeyId);
  }
}
