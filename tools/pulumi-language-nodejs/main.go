// Command pulumi-language-nodejs is a small Node.js language host for the Pulumi CLI.
//
// The official host (module github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3)
// has no release tags, and the Go module proxy this project builds from serves none of its
// pseudo-versions, so scripts/provide-pulumi.sh builds this one instead (docs/pulumi-cli.md).
//
// It implements the parts of the pulumirpc.LanguageRuntime protocol that running Node.js
// programs, dynamic providers, component providers and policy packs needs, by starting the entry
// points that ship in the @pulumi/pulumi npm package (cmd/run, cmd/run-plugin,
// cmd/run-policy-pack), so those run the same JavaScript as under the official host. Every other
// method answers "unimplemented", which the CLI treats as "not supported by this language".
package main

import (
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

func main() {
	flags := parseFlags(os.Args[1:])
	if flags.showVersion {
		fmt.Println(version.Version)
		return
	}
	if err := serve(newHost(flags)); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
		os.Exit(1)
	}
}

// serve listens on a free loopback port, tells the CLI which one, and blocks until the server
// stops. (rpcutil also raises the gRPC message size limit to what the CLI's own plugins accept.)
func serve(h *host) error {
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(s, h)
			return nil
		},
	})
	if err != nil {
		return fmt.Errorf("could not start the language host: %w", err)
	}
	// The CLI reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	return <-handle.Done
}
