package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseFlagsReadsEveryFlag(t *testing.T) {
	o, err := parseFlags([]string{"--schema", "s.json", "--version=0.3.0", "--python", "py", "--go", "go", "--tidy=false"},
		&bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := options{schemaPath: "s.json", version: "0.3.0", pythonDir: "py", goDir: "go", tidy: false}
	if o != want {
		t.Fatalf("got %+v, want %+v", o, want)
	}
}

func TestParseFlagsTidiesByDefault(t *testing.T) {
	o, err := parseFlags([]string{"--schema", "s.json", "--go", "go"}, &bytes.Buffer{})
	if err != nil || !o.tidy {
		t.Fatalf("tidy = %v, err = %v; want tidy by default", o.tidy, err)
	}
}

func TestParseFlagsRefusesIncompleteCommandLines(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"no schema":      {[]string{"--python", "py"}, "--schema is required"},
		"no language":    {[]string{"--schema", "s.json"}, "give --python DIR, --go DIR or both"},
		"a positional":   {[]string{"--schema", "s.json", "--go", "go", "python"}, `unexpected argument "python"`},
		"an unknown one": {[]string{"--schema", "s.json", "--java", "j"}, "flag provided but not defined: -java"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parseFlags(c.args, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestRunExitCodes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--go", "x"}, &stdout, &stderr); code != 2 {
		t.Errorf("a bad command line: exit code %d, want 2", code)
	}
	mustContain(t, "stderr", stderr.String(), "pulumi-sdkgen: --schema is required")
	stderr.Reset()
	if code := run([]string{"--help"}, &stdout, &stderr); code != 0 {
		t.Errorf("--help: exit code %d, want 0", code)
	}
	mustContain(t, "the usage", stderr.String(), "-schema", "-version", "-python", "-go", "-tidy")
	stderr.Reset()
	missing := t.TempDir() + "/missing.json"
	if code := run([]string{"--schema", missing, "--python", t.TempDir()}, &stdout, &stderr); code != 1 {
		t.Errorf("a missing schema: exit code %d, want 1", code)
	}
	mustContain(t, "stderr", stderr.String(), "reading the schema", "missing.json")
}
