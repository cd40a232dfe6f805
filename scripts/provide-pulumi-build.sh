#!/usr/bin/env bash
# The build steps of provide-pulumi.sh (step 3: a build with `go`), sourced by it only when neither PATH nor the
# cache has a usable CLI. It uses provide-pulumi.sh's settings and helpers (PULUMI_VERSION, DEST, BUILD_ID, log,
# install_hint, ...); run provide-pulumi.sh, not this file. docs/pulumi-cli.md describes the build.

# Copies `pulumi-resource-pulumi-nodejs` (runs dynamic providers) from the @pulumi/pulumi npm package into $1.
copy_shim() {
  local out="$1" src="" tmp="" pkgjson=""
  if command -v node >/dev/null 2>&1; then
    # Resolve like Node.js does from the package root, so a hoisted node_modules is found too.
    pkgjson="$(cd "$REPO_ROOT" && node -e 'process.stdout.write(require.resolve("@pulumi/pulumi/package.json"))' \
      2>/dev/null)" || pkgjson=""
  fi
  if [ -n "$pkgjson" ] && [ -f "$(dirname "$pkgjson")/pulumi-resource-pulumi-nodejs" ]; then
    src="$(dirname "$pkgjson")"
  else
    tmp="$(mktemp -d)"
    log "fetching @pulumi/pulumi@$PULUMI_VERSION from the npm registry for its shim script"
    (cd "$tmp" && npm pack --silent "@pulumi/pulumi@$PULUMI_VERSION" >/dev/null && tar -xzf ./*.tgz) >&2
    src="$tmp/package"
  fi
  cp "$src/pulumi-resource-pulumi-nodejs" "$out/pulumi-resource-pulumi-nodejs"
  chmod +x "$out/pulumi-resource-pulumi-nodejs"
  if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
}

# Prints the non-local replace directives of a go.mod file, one "replace X => Y" per line.
nonlocal_replaces() {
  awk '
    /^replace[ \t]*\(/ { block = 1; next }
    block && /^\)/ { block = 0; next }
    block { line = $0 }
    !block && /^replace[ \t]/ { line = $0; sub(/^replace[ \t]+/, "", line) }
    line != "" {
      sub(/\/\/.*$/, "", line)
      split(line, parts, "=>")
      target = parts[2]
      gsub(/^[ \t]+|[ \t]+$/, "", target)
      if (target !~ /^(\.|\/)/ && target != "") print "replace " line
      line = ""
    }
  ' "$1"
}

# Downloads a module (module@version) and prints the path of its go.mod file.
gomod_of() {
  local out file
  out="$(go mod download -json "$1" 2>&1)" || true
  file="$(printf '%s\n' "$out" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')"
  if [ -z "$file" ] || [ ! -f "$file" ]; then
    printf '%s\n' "$out" >&2
    log "could not download $1 from the Go module proxy ($(go env GOPROXY))"
    return 1
  fi
  echo "$file"
}

# Builds the CLI into $1/pulumi from a throwaway module that requires pkg/v3 and sdk/v3 at the release tag, with
# their non-local replace directives (a dependency's replace directives do not apply to the module requiring it).
build_cli() {
  local src="$1/src" pkgmod sdkmod godir
  pkgmod="$(gomod_of "github.com/pulumi/pulumi/pkg/v3@v$PULUMI_VERSION")"
  sdkmod="$(gomod_of "github.com/pulumi/pulumi/sdk/v3@v$PULUMI_VERSION")"
  godir="$(sed -n 's/^go \([0-9.]*\).*/\1/p' "$pkgmod" | head -n1)"
  mkdir -p "$src"
  {
    printf 'module pulumi-runpod-build\n\ngo %s\n\n' "${godir:-1.25}"
    printf 'require (\n\tgithub.com/pulumi/pulumi/pkg/v3 v%s\n\tgithub.com/pulumi/pulumi/sdk/v3 v%s\n)\n\n' \
      "$PULUMI_VERSION" "$PULUMI_VERSION"
    { nonlocal_replaces "$pkgmod"; nonlocal_replaces "$sdkmod"; } | sort -u
  } >"$src/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"\n' >"$src/tools.go"
  (cd "$src" && go mod tidy && go build -p "$BUILD_JOBS" -trimpath -ldflags "$LDFLAGS" \
    -o "$1/bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi) >&2
}

# Builds the YAML language host into $1/pulumi-language-yaml with `go install module@version`: the module's own
# go.mod and go.sum decide every dependency (it has no replace directives, which `go install` would refuse).
build_yaml_host() {
  GOBIN="$1" go install -p "$BUILD_JOBS" -trimpath -ldflags "$YAML_LDFLAGS" \
    "$YAML_MODULE/cmd/pulumi-language-yaml@v$YAML_VERSION" >&2
}

# reusable NAME STAMP: the cached $DEST/NAME was built from the inputs STAMP names (a word of the cached build id).
reusable() {
  [ -x "$DEST/$1" ] && [ -f "$DEST/.build-id" ] && [[ " $(cat "$DEST/.build-id") " == *" $2 "* ]]
}

WORK=""
# On exit from a build: remove the work directory; on failure, say so and how else to get Pulumi.
finish_build() {
  local rc=$?
  if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
  if [ "$rc" -ne 0 ]; then
    log "building Pulumi failed (see above)"
    install_hint
  fi
}

# 3. Build with go.
build() {
  command -v go >/dev/null 2>&1 || no_pulumi
  mkdir -p "$CACHE_ROOT"
  WORK="$(mktemp -d "$CACHE_ROOT/.build.XXXXXX")"
  trap finish_build EXIT
  export GOWORK=off GOFLAGS=-buildvcs=false
  mkdir -p "$WORK/bin"
  local start=$SECONDS step
  log "go: $(go env GOVERSION), -p $BUILD_JOBS, in $WORK"
  # The CLI and the two language hosts do not depend on each other: each cached one whose inputs did not change
  # is kept, and only what changed (or is missing) is built.
  if [ -x "$DEST/pulumi" ] && [ "$("$DEST/pulumi" version 2>/dev/null)" = "v$PULUMI_VERSION" ]; then
    log "reusing the cached Pulumi CLI v$PULUMI_VERSION"
    cp "$DEST/pulumi" "$WORK/bin/pulumi"
  else
    log "building Pulumi v$PULUMI_VERSION from the Go module proxy"
    log "a cold build takes 5-10 minutes on 2 cores; later runs reuse $DEST"
    step=$SECONDS
    build_cli "$WORK"
    log "the CLI built in $((SECONDS - step))s"
  fi
  if reusable pulumi-language-nodejs "$LANGHOST_ID"; then
    log "reusing the cached Node.js language host"
    cp "$DEST/pulumi-language-nodejs" "$WORK/bin/pulumi-language-nodejs"
  else
    log "building the Node.js language host from $LANGHOST_DIR"
    step=$SECONDS
    (cd "$LANGHOST_DIR" && go build -p "$BUILD_JOBS" -trimpath -ldflags "$LDFLAGS" \
      -o "$WORK/bin/pulumi-language-nodejs" .) >&2
    log "the Node.js language host built in $((SECONDS - step))s"
  fi
  if reusable pulumi-language-yaml "$YAML_ID"; then
    log "reusing the cached YAML language host v$YAML_VERSION"
    cp "$DEST/pulumi-language-yaml" "$WORK/bin/pulumi-language-yaml"
  else
    log "building the YAML language host v$YAML_VERSION from the Go module proxy ($YAML_MODULE)"
    step=$SECONDS
    build_yaml_host "$WORK/bin"
    log "the YAML language host built in $((SECONDS - step))s"
  fi
  log "built in $((SECONDS - start))s"
  copy_shim "$WORK/bin"
  "$WORK/bin/pulumi" version >&2
  echo "$BUILD_ID" >"$WORK/bin/.build-id"

  # Move into place with renames, so an interrupted build never leaves a half-filled cache.
  mkdir -p "$(dirname "$DEST")"
  rm -rf "$DEST.old"
  if [ -d "$DEST" ]; then mv "$DEST" "$DEST.old"; fi
  mv "$WORK/bin" "$DEST"
  rm -rf "$DEST.old"
  echo "$DEST"
}

