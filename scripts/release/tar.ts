import { createRequire } from "node:module";

/**
 * The parts of node-tar (the tar of npm itself) the release uses. Loaded without its declarations:
 * they name zlib's zstd classes, which the @types/node this package builds against (its oldest
 * supported Node's) does not have.
 */
export interface Tar {
  /** Creates an archive of `files` (relative to `cwd`). */
  c(
    options: {
      gzip: { level: number };
      file: string;
      cwd: string;
      portable: boolean;
      mtime: Date;
      noDirRecurse: boolean;
    },
    files: string[],
  ): Promise<void>;
  /** Extracts the entries `filter` accepts. */
  x(options: { file: string; cwd: string; sync: true; filter(path: string): boolean }): void;
}

/** node-tar. */
export const tar = createRequire(__filename)("tar") as Tar;
