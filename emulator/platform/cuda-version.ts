/*
 * CUDA versions as the platform compares them: numerically, `major.minor`, where a floor written
 * `12` accepts any release of 12.
 */

/** `12.4` as [12, 4] and `12` as [12, -1] (any release of 12), for numeric comparison. */
export function versionParts(version: string): [number, number] {
  const [major, minor] = version.split(".");
  return [Number(major), minor === undefined ? -1 : Number(minor)];
}

/** Whether CUDA `version` (major.minor) is at least `floor` (`12` or `12.1`), numerically. */
export function atLeast(version: string, floor: string): boolean {
  const [vMajor, vMinor] = versionParts(version);
  const [fMajor, fMinor] = versionParts(floor);
  return vMajor > fMajor || (vMajor === fMajor && vMinor >= fMinor);
}
