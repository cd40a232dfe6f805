package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestPythonSDKNamesThePluginAtTheVersionAndCarriesTheDocs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "python")
	if err := generatePython(preparedFixture(t), dir, ""); err != nil {
		t.Fatal(err)
	}
	plugin := pluginJSON(t, dir, "pulumi_runpod_iac/pulumi-plugin.json")
	want := map[string]any{"resource": true, "name": "runpod-iac", "version": "0.3.0"}
	if !reflect.DeepEqual(plugin, want) {
		t.Errorf("pulumi-plugin.json = %v, want %v", plugin, want)
	}
	mustContain(t, "pyproject.toml", readFile(t, dir, "pyproject.toml"),
		`name = "pulumi_runpod_iac"`, `version = "0.3.0"`, `readme = "README.md"`,
		// flit ships every file of the package folder (py.typed, pulumi-plugin.json) without a package-data table.
		`build-backend = "flit_core.buildapi"`)
	// The readme pyproject.toml names must exist, or pip refuses to build the project.
	mustContain(t, "README.md", readFile(t, dir, "README.md"), "A fixture shaped like the plugin's schema")
	mustContain(t, "_utilities.py", readFile(t, dir, "pulumi_runpod_iac/_utilities.py"),
		"def get_version():\n    return \"0.3.0\"", "version=get_version()")
	volume := readFile(t, dir, "pulumi_runpod_iac/network_volume.py")
	mustContain(t, "network_volume.py", volume,
		`@pulumi.type_token("runpod-iac:index:NetworkVolume")`,
		// an argument's doc, in the Args class and the constructor
		":param pulumi.Input[_builtins.int] size: Size in GB, 0..4000. May only grow.",
		// an output's doc, on the resource's property
		"def size(self) -> pulumi.Output[_builtins.int]:\n        \"\"\"\n        Size in GB.\n",
		// the resource's description
		"A network volume: persistent storage in one data center.")
	mustContain(t, "_inputs.py", readFile(t, dir, "pulumi_runpod_iac/_inputs.py"), "The scaler's threshold.")
	mustContain(t, "config/vars.py", readFile(t, dir, "pulumi_runpod_iac/config/vars.py"),
		"def api_key(self)", "API key of the platform account.", "'runpod-iac'")
}

func TestGoSDKIsAModuleThatNamesThePluginAtTheVersionAndCarriesTheDocs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "go")
	if err := generateGo(preparedFixture(t), dir, false); err != nil {
		t.Fatal(err)
	}
	sdk, err := sdkVersion()
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "go.mod", readFile(t, dir, "go.mod"),
		"module runpod-iac.local/sdk/go\n", "github.com/pulumi/pulumi/sdk/v3 "+sdk)
	if sdk != "v3.259.0" {
		t.Errorf("built with sdk/v3 %s; go.mod pins v3.259.0, the CLI's release", sdk)
	}
	plugin := pluginJSON(t, dir, "runpodiac/pulumi-plugin.json")
	want := map[string]any{"resource": true, "name": "runpod-iac", "version": "0.3.0"}
	if !reflect.DeepEqual(plugin, want) {
		t.Errorf("pulumi-plugin.json = %v, want %v", plugin, want)
	}
	// Every resource registers with these defaults: the engine loads plugin runpod-iac 0.3.0.
	mustContain(t, "internal/pulumiUtilities.go", readFile(t, dir, "runpodiac/internal/pulumiUtilities.go"),
		"func PkgResourceDefaultOpts(", `version := semver.MustParse("0.3.0")`,
		"defaults = append(defaults, pulumi.Version(version.String()))")
	volume := readFile(t, dir, "runpodiac/networkVolume.go")
	mustContain(t, "networkVolume.go", volume,
		"package runpodiac\n",
		`"runpod-iac.local/sdk/go/runpodiac/internal"`,
		"opts = internal.PkgResourceDefaultOpts(opts)",
		`ctx.RegisterResource("runpod-iac:index:NetworkVolume"`,
		"// A network volume: persistent storage in one data center.",
		"\t// Size in GB, 0..4000. May only grow.\n\tSize pulumi.IntInput", // argument doc
		"\t// Size in GB.\n\tSize pulumi.IntOutput",                        // output doc
	)
	mustContain(t, "config/config.go", readFile(t, dir, "runpodiac/config/config.go"),
		"// API key of the platform account.", `config.Get(ctx, "runpod-iac:apiKey")`)
}

func TestPythonSDKCarriesThePackageIndexMetadata(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "python")
	license := filepath.Join(t.TempDir(), "LICENSE")
	if err := os.WriteFile(license, []byte("Apache License\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := preparedFixture(t)
	spec.Repository = "https://github.com/acme/runpod-iac"
	if err := generatePython(spec, dir, license); err != nil {
		t.Fatal(err)
	}
	pyproject := readFile(t, dir, "pyproject.toml")
	mustContain(t, "pyproject.toml", pyproject,
		`license = "Apache-2.0"`, `license-files = ["LICENSE"]`,
		`"Programming Language :: Python :: 3"`, `"Typing :: Typed"`,
		`Repository = "https://github.com/acme/runpod-iac"`, `Issues = "https://github.com/acme/runpod-iac/issues"`,
		`requires = ["flit_core>=3.12,<5"]`)
	if strings.Contains(pyproject, "setuptools") {
		t.Errorf("pyproject.toml still names setuptools:\n%s", pyproject)
	}
	if got := readFile(t, dir, "LICENSE"); got != "Apache License\n" {
		t.Errorf("LICENSE = %q", got)
	}
}

func TestGenerationIsReproducible(t *testing.T) {
	root := t.TempDir()
	for _, run := range []string{"a", "b"} {
		if err := generatePython(preparedFixture(t), filepath.Join(root, run, "python"), ""); err != nil {
			t.Fatal(err)
		}
		if err := generateGo(preparedFixture(t), filepath.Join(root, run, "go"), false); err != nil {
			t.Fatal(err)
		}
	}
	a, b := listFiles(t, filepath.Join(root, "a")), listFiles(t, filepath.Join(root, "b"))
	if len(a) < 20 {
		t.Fatalf("only %d files generated", len(a))
	}
	if !reflect.DeepEqual(a, b) {
		for name := range a {
			if a[name] != b[name] {
				t.Errorf("%s differs between two runs", name)
			}
		}
		t.Fatal("two runs on the same schema wrote different SDKs")
	}
}

func TestWriteFilesRefusesANonEmptyDirectoryAndPathsOutsideIt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "left-over.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeFiles(dir, map[string][]byte{"a.py": nil})
	if err == nil || !strings.Contains(err.Error(), "is not empty (it holds left-over.py)") {
		t.Errorf("a non-empty directory: err = %v", err)
	}
	err = writeFiles(filepath.Join(t.TempDir(), "new"), map[string][]byte{"../escape.py": nil})
	if err == nil || !strings.Contains(err.Error(), `outside the SDK directory: "../escape.py"`) {
		t.Errorf("an escaping path: err = %v", err)
	}
	empty := t.TempDir()
	if err := writeFiles(empty, map[string][]byte{"pkg/mod.py": []byte("x = 1\n")}); err != nil {
		t.Fatalf("an empty directory: %v", err)
	}
	if got := readFile(t, empty, "pkg/mod.py"); got != "x = 1\n" {
		t.Errorf("wrote %q", got)
	}
}

func TestAddProjectReadmeNeedsTheGeneratedOne(t *testing.T) {
	files := map[string][]byte{"pyproject.toml": nil}
	if err := addProjectReadme(files); err == nil || !strings.Contains(err.Error(), "wrote no README.md") {
		t.Fatalf("err = %v", err)
	}
	files = map[string][]byte{"README.md": []byte("own"), "pkg/README.md": []byte("pkg")}
	if err := addProjectReadme(files); err != nil || string(files["README.md"]) != "own" {
		t.Fatalf("an existing project README was replaced: %q, %v", files["README.md"], err)
	}
}

// The whole command, as npm run gen:sdks runs it: the Go SDK tidied (go.sum written) and
// compiled with `go build ./...` and `go vet ./...`, as a user's program would compile it.
func TestCommandWritesAGoSDKThatBuilds(t *testing.T) {
	root := t.TempDir()
	goDir, pyDir := filepath.Join(root, "go"), filepath.Join(root, "python")
	var stdout, stderr bytes.Buffer
	code := run([]string{"--schema", fixture, "--version", "0.3.0", "--go", goDir, "--python", pyDir}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	mustContain(t, "stdout", stdout.String(), "python: "+pyDir, "go: "+goDir)
	mustContain(t, "go.sum", readFile(t, goDir, "go.sum"), "github.com/pulumi/pulumi/sdk/v3 v3.259.0 h1:")
	// -trimpath, as .ci/run's go test and the CLI's build: they share Go's build cache.
	for _, args := range [][]string{{"build", "-trimpath", "./..."}, {"vet", "-trimpath", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = goDir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the generated SDK: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
