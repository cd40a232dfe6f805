package main

import (
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// options are the Node.js runtime options. The host's command line sets the defaults; a
// project's `runtime.options` in Pulumi.yaml arrive with each request in ProgramInfo.Options.
type options struct {
	typescript     bool     // run TypeScript entry points through ts-node (PULUMI_NODEJS_TYPESCRIPT)
	tsconfig       string   // the tsconfig.json ts-node uses (PULUMI_NODEJS_TSCONFIG_PATH)
	nodeArgs       []string // arguments to node itself, before the entry point
	packageManager string   // npm, yarn, pnpm or bun; "" or "auto" picks one from the lock file
}

// defaultOptions are the options before any flag: TypeScript is on, as in the official host, so
// that a project's index.ts runs without configuration.
func defaultOptions() options {
	return options{typescript: true}
}

// merge returns o with the options that info sets replacing it. A value of the wrong type (say
// `typescript: "yes"`) is ignored and the default kept.
func (o options) merge(info *pulumirpc.ProgramInfo) options {
	if info == nil || info.GetOptions() == nil {
		return o
	}
	m := info.GetOptions().AsMap()
	if v, ok := m["typescript"].(bool); ok {
		o.typescript = v
	}
	if v, ok := m["tsconfig"].(string); ok {
		o.tsconfig = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		o.nodeArgs = strings.Fields(v)
	}
	if v, ok := m["packagemanager"].(string); ok {
		o.packageManager = v
	}
	return o
}
