//go:build !inline

package main

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

// `pulumi up` builds and runs this program.
func main() {
	pulumi.Run(deploy)
}
