import { z } from "zod";
import * as V2 from "../../sdk/schemas/v2";

/**
 * What the emulator keeps of an ECR delegation (v2 `/v2/registries/delegations`): the answer's
 * fields plus the repository ARN it was created from (one delegation per ARN).
 */
export const EcrDelegationRecordSchema = V2.EcrDelegationSchema.extend({ resource: z.string() });
/** A stored ECR delegation. */
export type EcrDelegationRecord = z.infer<typeof EcrDelegationRecordSchema>;

/** The parts of an ECR repository ARN (`arn:aws:ecr:<region>:<account>:repository/<name>[:<tag>]`). */
export interface EcrRepository {
  region: string;
  account: string;
  repository: string;
  tag: string;
}

const ECR_ARN =
  /^arn:aws[a-z-]*:ecr:([a-z0-9-]+):(\d{12}):repository\/([a-z0-9][a-z0-9._/-]*?)(?::([\w][\w.-]{0,127}))?$/;

/** The repository an ARN names, or undefined when it is not an ECR repository ARN. A tag after `:` is the emulator's addition; `latest` by default. */
export function parseEcrArn(arn: string): EcrRepository | undefined {
  const m = ECR_ARN.exec(arn.trim());
  if (!m) return undefined;
  return { region: m[1]!, account: m[2]!, repository: m[3]!, tag: m[4] ?? "latest" };
}

/** The answer (OpenAPI v2 `EcrDelegation`): the record without its ARN. */
export function renderDelegation(r: EcrDelegationRecord): V2.EcrDelegation {
  const { resource: _arn, ...answer } = r;
  return answer;
}
