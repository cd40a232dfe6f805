package main

import (
	"errors"
	"flag"
	"io"
)

// options is the command line, parsed.
type options struct {
	schemaPath string
	version    string
	pythonDir  string
	goDir      string
	// licensePath is a license text copied into the Python SDK, which its pyproject.toml names.
	licensePath string
	// tidy runs `go mod tidy` in the Go SDK, so that it comes with a complete go.mod and go.sum.
	tidy bool
}

// errHelp is returned for -h and --help, after the usage was printed.
var errHelp = errors.New("help requested")

// parseFlags reads the command line. At least one of --python and --go is required, and
// --schema always is; positional arguments are refused, so a mistyped flag cannot pass unseen.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("pulumi-sdkgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.schemaPath, "schema", "", "the package schema (JSON) to generate from (required)")
	fs.StringVar(&o.version, "version", "",
		"the plugin's version; the schema's own version, when set, must equal it (required unless the schema has one)")
	fs.StringVar(&o.pythonDir, "python", "", "write the Python SDK into this directory (absent or empty)")
	fs.StringVar(&o.goDir, "go", "", "write the Go SDK, a module with its go.mod, into this directory (absent or empty)")
	fs.StringVar(&o.licensePath, "python-license", "",
		"copy this license text into the Python SDK as LICENSE, named by its pyproject.toml (optional)")
	fs.BoolVar(&o.tidy, "tidy", true, "run `go mod tidy` in the Go SDK (needs the Go module cache or proxy)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, errHelp
		}
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, errors.New("unexpected argument " + quote(fs.Arg(0)) + ": every input is a flag (see --help)")
	case o.schemaPath == "":
		return o, errors.New("--schema is required: the package schema to generate from")
	case o.pythonDir == "" && o.goDir == "":
		return o, errors.New("nothing to generate: give --python DIR, --go DIR or both")
	}
	return o, nil
}
