package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/BurntSushi/toml"
)

// pythonClassifiers are the trove classifiers of the Python SDK's PyPI page: what kind of package
// it is, not what the schema says (the license and the links come from the schema).
var pythonClassifiers = []string{
	"Development Status :: 4 - Beta",
	"Intended Audience :: Developers",
	"Intended Audience :: System Administrators",
	"Operating System :: OS Independent",
	"Programming Language :: Python :: 3",
	"Programming Language :: Python :: 3 :: Only",
	"Topic :: Software Development :: Libraries",
	"Topic :: System :: Systems Administration",
	"Typing :: Typed",
}

// flitBackend builds the wheel and the sdist: a backend without dependencies, made for pure-Python
// packages, whose archives are the same bytes for the same sources (file times from
// SOURCE_DATE_EPOCH, owners and modes normalised, entries sorted), and which reads the SPDX
// license expression of PEP 639. The generator's setuptools writes an sdist with the build's time
// and the builder's user in it.
var flitBackend = map[string]any{
	"requires":      []string{"flit_core>=3.12,<5"},
	"build-backend": "flit_core.buildapi",
}

// pythonLicenseFile is the name the license text gets in the Python SDK (and its wheel and sdist).
const pythonLicenseFile = "LICENSE"

// finishPyproject completes the generated pyproject.toml for publishing: the flit backend (so
// the setuptools package-data table goes: flit ships every file of the package folder), the
// license as an SPDX expression with its file when one is given, the classifiers, and the
// project's issue tracker beside its repository.
func finishPyproject(generated []byte, withLicenseFile bool) ([]byte, error) {
	if generated == nil {
		return nil, errors.New("the Python generator wrote no pyproject.toml")
	}
	var doc map[string]any
	if _, err := toml.Decode(string(generated), &doc); err != nil {
		return nil, fmt.Errorf("the generated pyproject.toml: %w", err)
	}
	project, ok := doc["project"].(map[string]any)
	if !ok {
		return nil, errors.New("the generated pyproject.toml has no [project] table")
	}
	if license, ok := project["license"].(map[string]any); ok {
		if text, ok := license["text"].(string); ok && text != "" {
			project["license"] = text
		}
	}
	if withLicenseFile {
		project["license-files"] = []string{pythonLicenseFile}
	}
	project["classifiers"] = pythonClassifiers
	if urls, ok := project["urls"].(map[string]any); ok {
		if repo, ok := urls["Repository"].(string); ok && strings.HasPrefix(repo, "https://github.com/") {
			urls["Issues"] = strings.TrimSuffix(repo, "/") + "/issues"
		}
	}
	doc["build-system"] = flitBackend
	delete(doc, "tool")
	var out bytes.Buffer
	if err := toml.NewEncoder(&out).Encode(doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// addLicenseFile puts the license text at the Python project's root, where license-files names it.
func addLicenseFile(files map[string][]byte, licensePath string) error {
	if licensePath == "" {
		return nil
	}
	text, err := os.ReadFile(licensePath)
	if err != nil {
		return fmt.Errorf("reading the license file: %w", err)
	}
	files[pythonLicenseFile] = text
	return nil
}
