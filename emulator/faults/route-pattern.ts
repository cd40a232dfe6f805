/**
 * Glob matching of a fault rule's path pattern against a request path, without regular
 * expressions (a pattern of many `*` would make a regex backtrack for ages on a long path).
 * `*` matches any characters within one path segment; the pattern is a prefix of the path, and
 * its last segment a prefix of the path's segment at that position.
 */
export function pathMatches(patternSegments: readonly string[], path: string): boolean {
  const segments = path.split("/");
  if (segments.length < patternSegments.length) return false;
  const last = patternSegments.length - 1;
  for (let i = 0; i <= last; i++) {
    if (!globMatches(patternSegments[i]!, segments[i]!, i === last)) return false;
  }
  return true;
}

/** Splits a path pattern into segments once, when the rule is set. `*` alone matches every path. */
export function compilePathPattern(pattern: string): string[] {
  return pattern === "*" ? [] : pattern.split("/");
}

/** Classic two-pointer wildcard match, O(pattern x text) at worst; `prefix` allows text after the pattern. */
function globMatches(pattern: string, text: string, prefix: boolean): boolean {
  const p = prefix ? `${pattern}*` : pattern;
  let pi = 0;
  let ti = 0;
  let star = -1;
  let mark = 0;
  while (ti < text.length) {
    if (pi < p.length && p[pi] !== "*" && p[pi] === text[ti]) {
      pi++;
      ti++;
    } else if (pi < p.length && p[pi] === "*") {
      star = pi++;
      mark = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}
