import type { GpuPoolEntry } from "../../../schemas/gpu-pools";

/** How long a client keeps the live GPU catalog before reading it again. */
export const GPU_CATALOG_TTL_MS = 5 * 60_000;

/**
 * The live GPU catalog of one client, read once and kept for {@link GPU_CATALOG_TTL_MS} (pools
 * change with the platform's fleet, not from one call to the next); concurrent callers share one
 * read, and a failed read is not kept.
 */
export class GpuCatalogCache {
  private entry: { at: number; catalog: Promise<readonly GpuPoolEntry[]> } | undefined;

  constructor(
    private readonly load: () => Promise<readonly GpuPoolEntry[]>,
    private readonly ttlMs = GPU_CATALOG_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The catalog, from the cache while it is fresh. */
  get(): Promise<readonly GpuPoolEntry[]> {
    const at = this.now();
    if (this.entry && at - this.entry.at < this.ttlMs) return this.entry.catalog;
    const catalog = this.load();
    const entry = { at, catalog };
    this.entry = entry;
    catalog.catch(() => {
      if (this.entry === entry) this.entry = undefined;
    });
    return catalog;
  }
}
