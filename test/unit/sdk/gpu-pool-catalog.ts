import type { GpuPoolEntry } from "../../../sdk/internal";

/** A small catalog: two pools of two and three types, and a type serverless cannot rent. */
export const CATALOG: GpuPoolEntry[] = [
  { id: "A1", pool: "SMALL" },
  { id: "B1", pool: "BIG" },
  { id: "A2", pool: "SMALL" },
  { id: "B2", pool: "BIG" },
  { id: "POD-ONLY", pool: null },
  { id: "B3", pool: "BIG" },
];
