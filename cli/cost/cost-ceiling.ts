import * as fs from "node:fs";
import {
  STACK_COST_CEILING_POLICY,
  StackCostCeilingConfigSchema,
  type StackCostCeilingSettings,
} from "../../policy/stack-cost-ceiling";
import { settingLabel, settingsForStack } from "../../policy/stack-context";
import { CostUsageError } from "./cost-args";
import { formatUsd } from "./render-table";

/*
 * Spend against the policy pack's cost ceiling (`runpod-stack-cost-ceiling`): its caps are dollars
 * per hour, so over a window of H hours a cap allows cap × H. The settings are read from the file
 * given to `pulumi preview --policy-pack-config`, for this stack (its `byStack`/`byStackTag`).
 */

/** The ceiling's settings for the stack, from a `--policy-pack-config` file; undefined when the file has none. */
export function readCeiling(
  file: string,
  stackName: string,
  stackTags: ReadonlyMap<string, string>,
): ReturnType<typeof settingsForStack<StackCostCeilingSettings>> | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new CostUsageError(`--policy-config ${file}: ${(error as Error).message}`);
  }
  const entry = (raw as Record<string, unknown> | null)?.[STACK_COST_CEILING_POLICY];
  if (entry === undefined) return undefined;
  const { enforcementLevel: _level, ...settings } = (entry ?? {}) as Record<string, unknown>;
  const parsed = StackCostCeilingConfigSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CostUsageError(
      `--policy-config ${file}: ${STACK_COST_CEILING_POLICY}.${issue.path.join(".")}: ${issue.message}`,
    );
  }
  return settingsForStack<StackCostCeilingSettings>(parsed.data, { stackName, stackTags });
}

/** One line per cap set for the stack: what it allows over the window, and the share spent. */
export function ceilingLines(
  ceiling: ReturnType<typeof settingsForStack<StackCostCeilingSettings>> | undefined,
  spent: number,
  windowMs: number,
): string[] {
  if (!ceiling) return [`${STACK_COST_CEILING_POLICY}: not configured in the policy config`];
  const hours = windowMs / 3_600_000;
  const lines: string[] = [];
  for (const key of ["maxAlwaysOnPerHour", "maxWorstCasePerHour"] as const) {
    const cap = ceiling.values[key];
    if (cap === undefined) continue;
    const allowed = cap * hours;
    const share = allowed > 0 ? ` (${((spent / allowed) * 100).toFixed(1)}%)` : "";
    const over = spent > allowed ? ": OVER the ceiling" : "";
    lines.push(
      `${STACK_COST_CEILING_POLICY} ${settingLabel(ceiling, key)} ${formatUsd(cap)}/hour × ${Number(hours.toFixed(2))} hours = ${formatUsd(allowed)}; spent ${formatUsd(spent)}${share}${over}`,
    );
  }
  return lines.length > 0
    ? lines
    : [`${STACK_COST_CEILING_POLICY}: no cap (maxAlwaysOnPerHour, maxWorstCasePerHour) for this stack`];
}
