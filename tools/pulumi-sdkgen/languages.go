package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// goModulePath is the Go SDK's module path. The SDK is not published to a module proxy: it ships
// inside the npm package and users point their go.mod at it with a replace directive. The ".local"
// top-level domain can never resolve to a repository, so the path cannot be confused with (or
// shadowed by) a published module, as with this repository's other Go modules.
func goModulePath(pkgName string) string { return pkgName + ".local/sdk/go" }

// goPackageName is the Go package the SDK's resources live in: the package name without dashes
// (Go's codegen rule), e.g. runpodiac.
func goPackageName(pkgName string) string { return strings.ReplaceAll(pkgName, "-", "") }

// pythonPackageName is the Python import and distribution name, e.g. pulumi_runpod_iac: the name
// the Python generator would pick itself, written down so the docs and tests can rely on it.
func pythonPackageName(pkgName string) string {
	return "pulumi_" + strings.ReplaceAll(pkgName, "-", "_")
}

// languageDefaults are the language sections this tool adds to a schema (keys the schema sets
// itself win). respectSchemaVersion makes each generator write the schema's version into the
// code that tells the engine which plugin to load.
func languageDefaults(pkgName string) map[string]map[string]any {
	module := goModulePath(pkgName)
	return map[string]map[string]any{
		"python": {
			"packageName":          pythonPackageName(pkgName),
			"respectSchemaVersion": true,
			"pyproject":            map[string]any{"enabled": true},
		},
		"go": {
			"modulePath":           module,
			"importBasePath":       module + "/" + goPackageName(pkgName),
			"respectSchemaVersion": true,
		},
	}
}

// noDependencies is the schema loader: the package's schema references no other package's
// types, so a reference to one is an error, named, rather than a plugin download.
type noDependencies struct{}

var _ schema.ReferenceLoader = noDependencies{}

func (noDependencies) refuse(name string) error {
	return fmt.Errorf("the schema refers to package %s: this tool generates SDKs of packages without dependencies",
		quote(name))
}

func (l noDependencies) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.refuse(name)
}

func (l noDependencies) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.refuse(d.Name)
}

func (l noDependencies) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.refuse(name)
}

func (l noDependencies) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, l.refuse(d.Name)
}
