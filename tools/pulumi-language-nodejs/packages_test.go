package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// plugins renders dependencies as "name@version[ server]" for comparison.
func plugins(deps []*pulumirpc.PackageDependency) []string {
	var out []string
	for _, d := range deps {
		s := d.GetName() + "@" + d.GetVersion()
		if d.GetKind() != "resource" {
			s += " kind=" + d.GetKind()
		}
		if d.GetServer() != "" {
			s += " " + d.GetServer()
		}
		out = append(out, s)
	}
	return out
}

func resourcePackage(name, version string) string {
	return fmt.Sprintf(`{"name": %q, "version": %q, "pulumi": {"resource": true}}`, name, version)
}

func TestRequiredPackagesScansNodeModules(t *testing.T) {
	root := tempDir(t)
	outside := tempDir(t)
	writeFile(t, root, "package.json", `{"name": "infra"}`)
	writeFile(t, root, "node_modules/@pulumi/aws/package.json", resourcePackage("@pulumi/aws", "6.0.0"))
	writeFile(t, root, "node_modules/@pulumi/pulumi/package.json", `{"name": "@pulumi/pulumi", "version": "3.245.0"}`)
	writeFile(t, root, "node_modules/custom/package.json",
		`{"name": "custom", "version": "1.0.0", "pulumi": {"resource": true, "name": "acme", "version": "v2.1.0", "server": "https://plugins.example.com"}}`)
	writeFile(t, root, "node_modules/dup/node_modules/@pulumi/aws/package.json", resourcePackage("@pulumi/aws", "6.0.0"))
	writeFile(t, root, "node_modules/not-a-plugin/package.json", `{"name": "not-a-plugin", "pulumi": {"resource": false}}`)
	writeFile(t, root, "node_modules/broken/package.json", `{"name": `)
	writeFile(t, root, "node_modules/.hidden/package.json", resourcePackage("hidden", "1.0.0"))
	writeFile(t, root, "node_modules/old/node_modules/@pulumi/aws/package.json", resourcePackage("@pulumi/aws", "5.0.0"))
	writeFile(t, root, "node_modules/outer/node_modules/@pulumi/random/package.json", resourcePackage("@pulumi/random", "4.0.0"))
	writeFile(t, outside, "package.json", resourcePackage("linked", "0.1.0"))
	symlink(t, outside, root, "node_modules/linked")
	symlink(t, outside, root, "node_modules/linked-again")
	symlink(t, "..", root, "node_modules/self") // like runpod-iac's own link to the repository
	program := filepath.Join(root, "src", "stack")
	if err := os.MkdirAll(program, 0o755); err != nil {
		t.Fatal(err)
	}

	want := []string{"aws@v6.0.0", "acme@v2.1.0 https://plugins.example.com", "linked@v0.1.0", "aws@v5.0.0", "random@v4.0.0"}
	if got := plugins(requiredPackages(program)); !reflect.DeepEqual(got, want) {
		t.Errorf("requiredPackages() = %q, want %q", got, want)
	}

	h := newHost(hostFlags{defaults: defaultOptions()})
	resp, err := h.GetRequiredPlugins(context.Background(), &pulumirpc.GetRequiredPluginsRequest{Pwd: program})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range resp.GetPlugins() {
		got = append(got, p.GetName()+"@"+p.GetVersion())
	}
	if want := []string{"aws@v6.0.0", "acme@v2.1.0", "linked@v0.1.0", "aws@v5.0.0", "random@v4.0.0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("GetRequiredPlugins() = %q, want %q", got, want)
	}
}

func TestRequiredPackagesWithoutNodeModulesIsEmpty(t *testing.T) {
	if got := requiredPackages(t.TempDir()); got != nil {
		t.Errorf("requiredPackages() = %v, want none", got)
	}
}

func TestRequiredPackagesStopsAtTheNestingLimit(t *testing.T) {
	root := tempDir(t)
	// Package i sits i node_modules folders below the top one, and declares plugin p<i>.
	rel := "node_modules"
	for depth := 0; depth <= maxNodeModulesDepth+1; depth++ {
		name := fmt.Sprintf("p%d", depth)
		rel += "/" + name
		writeFile(t, root, rel+"/package.json", resourcePackage(name, "1.0.0"))
		rel += "/node_modules"
	}
	got := plugins(requiredPackages(root))
	if len(got) != maxNodeModulesDepth+1 || !strings.HasPrefix(got[len(got)-1], fmt.Sprintf("p%d@", maxNodeModulesDepth)) {
		t.Errorf("requiredPackages() = %q, want p0 to p%d", got, maxNodeModulesDepth)
	}
}

func TestPluginOf(t *testing.T) {
	type pulumiField = struct {
		Resource bool   `json:"resource"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Server   string `json:"server"`
	}
	tests := []struct {
		name string
		pkg  packageJSON
		want []string
	}{
		{name: "no pulumi field", pkg: packageJSON{Name: "left-pad", Version: "1.0.0"}},
		{name: "not a resource", pkg: packageJSON{Name: "@pulumi/pulumi", Pulumi: &pulumiField{}}},
		{name: "the @pulumi/ scope is dropped", pkg: packageJSON{Name: "@pulumi/gcp", Version: "7.1.0", Pulumi: &pulumiField{Resource: true}}, want: []string{"gcp@v7.1.0"}},
		{name: "another scope is kept", pkg: packageJSON{Name: "@acme/thing", Version: "1.0.0", Pulumi: &pulumiField{Resource: true}}, want: []string{"@acme/thing@v1.0.0"}},
		{name: "the pulumi field's name and version win", pkg: packageJSON{Name: "x", Version: "1.0.0", Pulumi: &pulumiField{Resource: true, Name: "y", Version: "2.0.0"}}, want: []string{"y@v2.0.0"}},
		{name: "no version stays empty", pkg: packageJSON{Name: "x", Pulumi: &pulumiField{Resource: true}}, want: []string{"x@"}},
		{name: "no name at all is no plugin", pkg: packageJSON{Version: "1.0.0", Pulumi: &pulumiField{Resource: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			if dep := pluginOf(tt.pkg); dep != nil {
				got = plugins([]*pulumirpc.PackageDependency{dep})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("pluginOf() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestProgramDependencies(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "package.json",
		`{"dependencies": {"zod": "^4", "@pulumi/pulumi": "^3", "missing": "^1"}, "devDependencies": {"vitest": "^4"}}`)
	writeFile(t, root, "node_modules/zod/package.json", `{"name": "zod", "version": "4.6.7"}`)
	writeFile(t, root, "node_modules/@pulumi/pulumi/package.json", `{"name": "@pulumi/pulumi", "version": "3.245.0"}`)
	writeFile(t, root, "node_modules/vitest/package.json", `{"name": "vitest", "version": "4.1.12"}`)
	program := filepath.Join(root, "infra")

	var got []string
	for _, d := range programDependencies(program) {
		got = append(got, d.GetName()+"="+d.GetVersion())
	}
	if want := []string{"@pulumi/pulumi=3.245.0", "missing=", "zod=4.6.7"}; !reflect.DeepEqual(got, want) {
		t.Errorf("programDependencies() = %q, want %q", got, want)
	}
	if got := programDependencies(t.TempDir()); got != nil {
		t.Errorf("programDependencies() without a package.json = %v, want none", got)
	}
}
