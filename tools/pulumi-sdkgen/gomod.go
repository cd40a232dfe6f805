package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"

	"golang.org/x/mod/modfile"
)

const pulumiSDKModule = "github.com/pulumi/pulumi/sdk/v3"

// sdkVersion is the version of github.com/pulumi/pulumi/sdk/v3 this tool was built with: the
// release whose code generators wrote the SDK, so the release whose Go SDK the code is known to
// compile against.
func sdkVersion() (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("this binary carries no module information (built without module mode?)")
	}
	for _, dep := range info.Deps {
		if dep.Path == pulumiSDKModule {
			if dep.Replace != nil {
				return dep.Replace.Version, nil
			}
			return dep.Version, nil
		}
	}
	return "", fmt.Errorf("this binary was not built with %s", pulumiSDKModule)
}

// requireOwnSDK raises the generated go.mod's requirement on the Pulumi Go SDK to the release of
// the generators (the generator hard-codes an older floor).
func requireOwnSDK(gomod []byte) ([]byte, error) {
	if gomod == nil {
		return nil, errors.New("the Go generator wrote no go.mod")
	}
	version, err := sdkVersion()
	if err != nil {
		return nil, err
	}
	f, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		return nil, fmt.Errorf("the generated go.mod: %w", err)
	}
	if err := f.AddRequire(pulumiSDKModule, version); err != nil {
		return nil, fmt.Errorf("the generated go.mod: %w", err)
	}
	return f.Format()
}

// goModTidy runs `go mod tidy` in dir, outside any workspace, without touching VCS metadata.
func goModTidy(dir string) error {
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %w\n%s", dir, err, out.String())
	}
	return nil
}
