package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// fixture is a schema shaped like the plugin's: package runpod-iac, three resources, an object
// type, and the provider's configuration (apiKey secret).
const fixture = "testdata/schema.json"

// fixtureSpec loads the fixture, failing the test when it does not load.
func fixtureSpec(t *testing.T) schema.PackageSpec {
	t.Helper()
	spec, err := loadSpec(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// preparedFixture is the fixture after prepareSpec with version 0.3.0.
func preparedFixture(t *testing.T) schema.PackageSpec {
	t.Helper()
	spec := fixtureSpec(t)
	if err := prepareSpec(&spec, "0.3.0"); err != nil {
		t.Fatal(err)
	}
	return spec
}

// readFile returns dir/rel as a string, failing the test when it is missing.
func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// mustContain fails the test unless text contains each of wants.
func mustContain(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s does not contain %q:\n%s", what, want, text)
		}
	}
}

// pluginJSON reads a generated pulumi-plugin.json.
func pluginJSON(t *testing.T, dir, rel string) map[string]any {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal([]byte(readFile(t, dir, rel)), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// writeSchema writes spec as JSON into a temporary file and returns its path.
func writeSchema(t *testing.T, spec any) string {
	t.Helper()
	data, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// listFiles returns the files under dir, relative and slash-separated, with their contents.
func listFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
