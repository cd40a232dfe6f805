/**
 * Container image references, as a template's `imageName` holds them:
 * `[registry[:port]/]path[:tag][@algorithm:hex]`, following the grammar of the Docker/OCI
 * reference (distribution/reference `reference.go` and its normalisation in `normalize.go`):
 *
 * - the first path segment is a registry host when it contains `.` or `:`, is `localhost`, or has
 *   an uppercase letter (path segments may not); otherwise the registry is `docker.io`, and a
 *   one-segment Docker Hub name gets the `library/` namespace (`ubuntu` is `docker.io/library/ubuntu`);
 *   `index.docker.io` is the same registry as `docker.io`;
 * - path segments are lowercase letters and digits joined by `.`, `_`, `__` or dashes;
 * - a tag is at most 128 of `[A-Za-z0-9_.-]`, not starting with `.` or `-`; no tag means `latest`;
 * - a digest is `sha256:` and 64 lowercase hex digits, or `sha512:` and 128 (what registries accept).
 *
 * Hand-written rather than a dependency: it is one regular expression per part, and the npm
 * parsers are small, rarely released ports of the same grammar.
 */

/** A parsed image reference. */
export interface ImageReference {
  /** Registry host, with its port if any, lowercased (`docker.io` when the reference names none). */
  readonly registry: string;
  /** Repository path inside the registry, e.g. `acme/app` or `library/ubuntu`. */
  readonly path: string;
  /** `registry/path`: the fully qualified repository, e.g. `docker.io/library/ubuntu`. */
  readonly repository: string;
  /** The tag as written, or undefined when the reference has none (the engine then pulls `latest`). */
  readonly tag: string | undefined;
  /** The digest (`sha256:<hex>`), or undefined. A digest pins the image whatever the tag says. */
  readonly digest: string | undefined;
}

/** The result of parsing: the reference, or the rule the text breaks. */
export type ImageReferenceParse =
  { readonly ok: true; readonly reference: ImageReference } | { readonly ok: false; readonly problem: string };

/** Docker Hub's canonical registry name. */
export const DOCKER_HUB = "docker.io";

const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const REGISTRY = new RegExp(`^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?$`);
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGESTS: Readonly<Record<string, RegExp>> = { sha256: /^[a-f0-9]{64}$/, sha512: /^[a-f0-9]{128}$/ };
/** distribution/reference's `NameTotalLengthMax`. */
const NAME_MAX_LENGTH = 255;

const fail = (problem: string): ImageReferenceParse => ({ ok: false, problem });

/** Parses an image reference; never throws. */
export function parseImageReference(text: string): ImageReferenceParse {
  if (text.length === 0) return fail("is empty");
  if (text !== text.trim()) return fail("has leading or trailing whitespace");
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    const [algorithm = "", hex, ...extra] = digest.split(":");
    const hexRule = DIGESTS[algorithm];
    if (hex === undefined || extra.length > 0 || !hexRule) {
      return fail(`has the digest "${digest}"; a digest is sha256:<64 hex digits> (or sha512:<128>)`);
    }
    if (!hexRule.test(hex))
      return fail(`has the digest "${digest}", whose ${algorithm} part is not lowercase hex of the right length`);
  }
  // The tag follows the last ':' after the last '/' (a ':' before it is the registry's port).
  let tag: string | undefined;
  const colon = rest.lastIndexOf(":");
  if (colon > rest.lastIndexOf("/")) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) {
      return fail(`has the tag "${tag}"; a tag is 1 to 128 of A-Z a-z 0-9 _ . - and does not start with . or -`);
    }
  }
  if (rest.length > NAME_MAX_LENGTH) return fail(`has a repository name longer than ${NAME_MAX_LENGTH} characters`);
  const segments = rest.split("/");
  const first = segments[0] ?? "";
  const hasRegistry =
    segments.length > 1 &&
    (first.includes(".") || first.includes(":") || first === "localhost" || first !== first.toLowerCase());
  let registry = DOCKER_HUB;
  if (hasRegistry) {
    if (!REGISTRY.test(first))
      return fail(`names the registry "${first}", which is not a host name with an optional port`);
    registry = first.toLowerCase() === "index.docker.io" ? DOCKER_HUB : first.toLowerCase();
    segments.shift();
  }
  const bad = segments.find((segment) => !PATH_COMPONENT.test(segment));
  if (bad !== undefined) {
    return fail(
      `has the path segment "${bad}"; path segments are lowercase letters and digits, joined by ".", "_", "__" or "-"`,
    );
  }
  if (registry === DOCKER_HUB && segments.length === 1) segments.unshift("library");
  const path = segments.join("/");
  return { ok: true, reference: { registry, path, repository: `${registry}/${path}`, tag, digest } };
}

/**
 * True when `repository` (fully qualified, e.g. `ghcr.io/acme/app`) lies under `prefix`: equal to
 * it, or inside it at a `/` boundary (`ghcr.io/acme` covers `ghcr.io/acme/app`, not
 * `ghcr.io/acme-evil/app`). A prefix that ends with `/` is matched as written. The registry part
 * is compared without regard to case, as host names are.
 */
export function repositoryUnder(repository: string, prefix: string): boolean {
  const slash = prefix.indexOf("/");
  const normalized = slash < 0 ? prefix.toLowerCase() : prefix.slice(0, slash).toLowerCase() + prefix.slice(slash);
  if (normalized.length === 0) return false;
  if (normalized.endsWith("/")) return repository.startsWith(normalized);
  return repository === normalized || repository.startsWith(`${normalized}/`);
}
