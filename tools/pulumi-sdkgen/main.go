// Command pulumi-sdkgen writes the Python and Go SDKs of a Pulumi package schema with Pulumi's own
// code generators (github.com/pulumi/pulumi/pkg/v3/codegen/python and codegen/go), at the release
// the CLI is built from.
//
// `pulumi package gen-sdk` would do the same, but it hands each language to that language's host,
// and the Go module proxy this project builds from serves neither the Python nor the Go host. The
// generators themselves are plain Go packages of pkg/v3, so this tool calls them directly.
//
//	pulumi-sdkgen --schema schema.json --version 0.3.0 [--python DIR [--python-license FILE]] [--go DIR] [--tidy=false]
//
// The version is the plugin's: the generated code asks the engine for plugin <name> at exactly
// that version. npm run gen:sdks runs it through scripts/gen-sdks.sh (docs/languages.md).
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run generates what the command line asks for and returns the exit code: 0 when done, 1 when
// generation failed, 2 for a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args, stderr)
	if err != nil {
		if err == errHelp {
			return 0
		}
		fmt.Fprintf(stderr, "pulumi-sdkgen: %v\n", err)
		return 2
	}
	spec, err := loadSpec(opts.schemaPath)
	if err == nil {
		err = prepareSpec(&spec, opts.version)
	}
	if err == nil && opts.pythonDir != "" {
		err = generatePython(spec, opts.pythonDir, opts.licensePath)
		if err == nil {
			fmt.Fprintf(stdout, "python: %s\n", opts.pythonDir)
		}
	}
	if err == nil && opts.goDir != "" {
		err = generateGo(spec, opts.goDir, opts.tidy)
		if err == nil {
			fmt.Fprintf(stdout, "go: %s\n", opts.goDir)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "pulumi-sdkgen: %v\n", err)
		return 1
	}
	return 0
}
