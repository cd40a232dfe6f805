package main

import (
	"errors"
	"fmt"
	"path"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// generatorName is what the generated files' "do not edit" header names as their author.
const generatorName = "pulumi-sdkgen"

// generatePython writes the Python SDK (a package `pip install DIR` installs) into dir.
func generatePython(spec schema.PackageSpec, dir string, licensePath string) error {
	pkg, err := bindPackage(spec)
	if err != nil {
		return err
	}
	files, err := python.GeneratePackage(generatorName, pkg, nil, noDependencies{})
	if err != nil {
		return fmt.Errorf("generating the Python SDK: %w", err)
	}
	if err := addProjectReadme(files); err != nil {
		return err
	}
	if err := addLicenseFile(files, licensePath); err != nil {
		return err
	}
	pyproject, err := finishPyproject(files["pyproject.toml"], licensePath != "")
	if err != nil {
		return err
	}
	files["pyproject.toml"] = pyproject
	return writeFiles(dir, files)
}

// generateGo writes the Go SDK, a module with its go.mod, into dir; with tidy, `go mod tidy` then
// completes its requirements and writes go.sum, so that `go build ./...` works in it as it is.
func generateGo(spec schema.PackageSpec, dir string, tidy bool) error {
	pkg, err := bindPackage(spec)
	if err != nil {
		return err
	}
	files, err := gogen.GeneratePackage(generatorName, pkg, nil)
	if err != nil {
		return fmt.Errorf("generating the Go SDK: %w", err)
	}
	gomod, err := requireOwnSDK(files["go.mod"])
	if err != nil {
		return err
	}
	files["go.mod"] = gomod
	if err := writeFiles(dir, files); err != nil {
		return err
	}
	if tidy {
		return goModTidy(dir)
	}
	return nil
}

// addProjectReadme puts the package's README.md at the project root too: the generated
// pyproject.toml names README.md (relative to itself) as the project's readme, but the generator
// writes it only inside the package, and pip refuses to build a project whose readme is missing.
func addProjectReadme(files map[string][]byte) error {
	if _, ok := files["README.md"]; ok {
		return nil
	}
	for name, content := range files {
		if path.Base(name) == "README.md" && path.Dir(path.Dir(name)) == "." {
			files["README.md"] = content
			return nil
		}
	}
	return errors.New("the Python generator wrote no README.md, which its pyproject.toml names")
}
