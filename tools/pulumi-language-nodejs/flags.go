package main

import "strings"

// hostFlags is what the Pulumi CLI starts a language host with:
//
//	pulumi-language-nodejs [--tracing URL] [--root DIR] [--typescript[=BOOL]] [--tsconfig FILE]
//	    [--nodeargs ARGS] [--packagemanager NAME] ENGINE_ADDRESS
//
// The runtime options among them are defaults that a project's `runtime.options` in Pulumi.yaml
// override per request (options.merge). --root is accepted and ignored: every request carries
// the root directory in its ProgramInfo.
type hostFlags struct {
	showVersion   bool
	tracing       string
	engineAddress string
	defaults      options
}

// flagsWithValue are the flags that take the next argument as their value when it is not given
// with "=".
var flagsWithValue = map[string]bool{
	"tracing": true, "root": true, "tsconfig": true, "nodeargs": true, "packagemanager": true,
}

// parseFlags reads the command line by hand rather than with the flag package, because a host
// must start whatever flags a newer CLI adds: unknown flags are ignored, not fatal. Flags may
// start with one dash or two. The engine address is the last positional argument.
func parseFlags(args []string) hostFlags {
	f := hostFlags{defaults: defaultOptions()}
	var positional []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			positional = append(positional, arg)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !hasValue && flagsWithValue[name] && i+1 < len(args) {
			i++
			value = args[i]
		}
		switch name {
		case "version":
			f.showVersion = true
		case "tracing":
			f.tracing = value
		case "typescript":
			// A bare --typescript means true, as for the flag package's boolean flags.
			f.defaults.typescript = !hasValue || value != "false"
		case "tsconfig":
			f.defaults.tsconfig = value
		case "nodeargs":
			f.defaults.nodeArgs = strings.Fields(value)
		case "packagemanager":
			f.defaults.packageManager = value
		}
	}
	if len(positional) > 0 {
		f.engineAddress = positional[len(positional)-1]
	}
	return f
}
