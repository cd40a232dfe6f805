package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// loadSpec reads a package schema. Unknown fields are refused: a misspelt field would otherwise
// be dropped without a word, and the SDKs generated without it.
func loadSpec(path string) (schema.PackageSpec, error) {
	var spec schema.PackageSpec
	data, err := os.ReadFile(path)
	if err != nil {
		return spec, fmt.Errorf("reading the schema: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&spec); err != nil {
		return spec, fmt.Errorf("the schema %s is not a Pulumi package schema: %w", path, err)
	}
	if spec.Name == "" {
		return spec, fmt.Errorf("the schema %s has no name: a package schema names its package (and plugin)", path)
	}
	return spec, nil
}

// prepareSpec sets what the SDKs need beyond the schema's own content: the plugin's version, the
// "support pack" layout (the generators then write the exact version into pulumi-plugin.json, the
// Python package metadata and the Go resource options, and give the Go SDK its go.mod), and each
// language's package names (languageDefaults). A version the schema already states must equal
// the one given, so the SDKs never ask the engine for a plugin other than the one that ships.
func prepareSpec(spec *schema.PackageSpec, version string) error {
	switch {
	case version == "" && spec.Version == "":
		return fmt.Errorf("no version: give --version (the plugin's version, package.json's), the schema has none")
	case version == "":
		version = spec.Version
	case spec.Version != "" && spec.Version != version:
		return fmt.Errorf("the schema's version %s differs from --version %s: the SDKs would ask the engine "+
			"for a plugin that does not ship; regenerate the schema or pass its version", quote(spec.Version), quote(version))
	}
	if _, err := semver.Parse(version); err != nil {
		return fmt.Errorf("version %s is not a semantic version (MAJOR.MINOR.PATCH): %w", quote(version), err)
	}
	spec.Version = version
	if spec.Meta == nil {
		spec.Meta = &schema.MetadataSpec{}
	}
	spec.Meta.SupportPack = true
	for lang, defaults := range languageDefaults(spec.Name) {
		merged, err := mergeLanguage(spec.Language[lang], defaults)
		if err != nil {
			return fmt.Errorf("the schema's language.%s: %w", lang, err)
		}
		if spec.Language == nil {
			spec.Language = map[string]schema.RawMessage{}
		}
		spec.Language[lang] = merged
	}
	return nil
}

// mergeLanguage adds the defaults to a schema's own language section; a key the schema sets wins.
func mergeLanguage(own schema.RawMessage, defaults map[string]any) (schema.RawMessage, error) {
	merged := map[string]any{}
	if len(own) > 0 {
		if err := json.Unmarshal(own, &merged); err != nil {
			return nil, fmt.Errorf("not a JSON object: %w", err)
		}
	}
	for k, v := range defaults {
		if _, set := merged[k]; !set {
			merged[k] = v
		}
	}
	return json.Marshal(merged)
}

// bindPackage checks the schema against Pulumi's metaschema and binds it, for one generator (each
// generator imports its own language section into the package it is given).
func bindPackage(spec schema.PackageSpec) (*schema.Package, error) {
	pkg, diags, err := schema.BindSpec(spec, noDependencies{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("binding the schema: %w", err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("the schema is not valid: %s", diags.Error())
	}
	return pkg, nil
}
