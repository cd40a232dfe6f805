package main

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// maxNodeModulesDepth bounds how deep the scan follows nested node_modules folders.
const maxNodeModulesDepth = 8

// packageJSON holds the fields of an installed package's package.json that the host reads.
type packageJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Pulumi is set by packages that need a resource plugin (such as @pulumi/aws).
	Pulumi *struct {
		Resource bool   `json:"resource"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Server   string `json:"server"`
	} `json:"pulumi"`
}

// readJSON parses the JSON file at path into v.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// GetRequiredPackages lists the resource plugins the program's installed packages declare, so
// the CLI can install them before it runs the program.
func (h *host) GetRequiredPackages(
	_ context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{
		Packages: requiredPackages(programDirectory(req.GetInfo(), "")),
	}, nil
}

// GetRequiredPlugins is the older form of GetRequiredPackages, which CLIs fall back to when a
// host does not implement the newer one.
func (h *host) GetRequiredPlugins(
	_ context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	var plugins []*pulumirpc.PluginDependency
	for _, p := range requiredPackages(programDirectory(req.GetInfo(), req.GetPwd())) {
		plugins = append(plugins, &pulumirpc.PluginDependency{
			Name: p.Name, Kind: p.Kind, Version: p.Version, Server: p.Server,
		})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// requiredPackages scans the node_modules folder nearest to dir (upwards) and the node_modules
// folders nested in its packages for package.json files with `"pulumi": {"resource": true}`,
// and lists each plugin once per name and version.
func requiredPackages(dir string) []*pulumirpc.PackageDependency {
	modules, ok := findUp(dir, "node_modules")
	if !ok {
		return nil
	}
	s := pluginScan{visited: map[string]bool{}, listed: map[string]bool{}}
	s.walk(modules, 0)
	return s.found
}

// pluginScan is the state of one requiredPackages scan.
type pluginScan struct {
	visited map[string]bool // package directories read, after symlinks, so links and cycles count once
	listed  map[string]bool // name@version of the plugins found
	found   []*pulumirpc.PackageDependency
}

// walk visits the packages in one node_modules folder, scoped ones (@scope/name) included.
// Entries starting with "." (.bin, .package-lock.json, pnpm's .pnpm store) are not packages.
func (s *pluginScan) walk(modules string, depth int) {
	entries, err := os.ReadDir(modules)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
		case strings.HasPrefix(name, "@"):
			scoped, err := os.ReadDir(filepath.Join(modules, name))
			if err != nil {
				continue
			}
			for _, pkg := range scoped {
				s.visit(filepath.Join(modules, name, pkg.Name()), depth)
			}
		default:
			s.visit(filepath.Join(modules, name), depth)
		}
	}
}

// visit reads one package and walks its own node_modules.
func (s *pluginScan) visit(pkgDir string, depth int) {
	real, err := filepath.EvalSymlinks(pkgDir)
	if err != nil || s.visited[real] {
		return
	}
	s.visited[real] = true
	var pkg packageJSON
	if readJSON(filepath.Join(real, "package.json"), &pkg) == nil {
		if dep := pluginOf(pkg); dep != nil && !s.listed[dep.Name+"@"+dep.Version] {
			s.listed[dep.Name+"@"+dep.Version] = true
			s.found = append(s.found, dep)
		}
	}
	if depth < maxNodeModulesDepth {
		s.walk(filepath.Join(real, "node_modules"), depth+1)
	}
}

// pluginOf returns the resource plugin a package declares, or nil. The plugin's name defaults to
// the package's without the @pulumi/ scope, its version to the package's, with a "v" prefix.
func pluginOf(pkg packageJSON) *pulumirpc.PackageDependency {
	if pkg.Pulumi == nil || !pkg.Pulumi.Resource {
		return nil
	}
	name := pkg.Pulumi.Name
	if name == "" {
		name = strings.TrimPrefix(pkg.Name, "@pulumi/")
	}
	if name == "" {
		return nil
	}
	version := pkg.Pulumi.Version
	if version == "" {
		version = pkg.Version
	}
	if version != "" && !strings.HasPrefix(version, "v") {
		version = "v" + version
	}
	return &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version, Server: pkg.Pulumi.Server}
}

// GetProgramDependencies lists the program's dependencies, for `pulumi about`.
func (h *host) GetProgramDependencies(
	_ context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{
		Dependencies: programDependencies(programDirectory(req.GetInfo(), req.GetPwd())),
	}, nil
}

// programDependencies lists the "dependencies" of the nearest package.json from dir up, sorted by
// name, each with the version installed in the node_modules beside it ("" when not installed).
func programDependencies(dir string) []*pulumirpc.DependencyInfo {
	path, ok := findUp(dir, "package.json")
	if !ok {
		return nil
	}
	var program struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if readJSON(path, &program) != nil {
		return nil
	}
	var deps []*pulumirpc.DependencyInfo
	for _, name := range slices.Sorted(maps.Keys(program.Dependencies)) {
		version := ""
		var installed packageJSON
		if readJSON(filepath.Join(filepath.Dir(path), "node_modules", name, "package.json"), &installed) == nil {
			version = installed.Version
		}
		deps = append(deps, &pulumirpc.DependencyInfo{Name: name, Version: version})
	}
	return deps
}
