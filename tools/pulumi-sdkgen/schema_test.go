package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func TestLoadSpecRefusesUnknownFieldsAndNamelessSchemas(t *testing.T) {
	_, err := loadSpec(writeSchema(t, map[string]any{"name": "x", "resourcez": map[string]any{}}))
	if err == nil || !strings.Contains(err.Error(), `unknown field "resourcez"`) {
		t.Errorf("a misspelt field: err = %v", err)
	}
	_, err = loadSpec(writeSchema(t, map[string]any{"description": "no name"}))
	if err == nil || !strings.Contains(err.Error(), "has no name") {
		t.Errorf("no name: err = %v", err)
	}
}

func TestPrepareSpecTakesTheVersionGiven(t *testing.T) {
	spec := fixtureSpec(t)
	if err := prepareSpec(&spec, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	if spec.Version != "1.2.3" || spec.Meta == nil || !spec.Meta.SupportPack {
		t.Fatalf("version %q, meta %+v: want 1.2.3 with supportPack", spec.Version, spec.Meta)
	}
}

func TestPrepareSpecKeepsASchemaVersionThatAgrees(t *testing.T) {
	spec := fixtureSpec(t)
	spec.Version = "0.3.0"
	if err := prepareSpec(&spec, ""); err != nil || spec.Version != "0.3.0" {
		t.Fatalf("no --version: version %q, err %v", spec.Version, err)
	}
	if err := prepareSpec(&spec, "0.3.0"); err != nil {
		t.Fatalf("the same --version: %v", err)
	}
}

func TestPrepareSpecRefusesVersionsThatDisagreeOrAreMissingOrMalformed(t *testing.T) {
	spec := fixtureSpec(t)
	spec.Version = "0.2.0"
	err := prepareSpec(&spec, "0.3.0")
	if err == nil || !strings.Contains(err.Error(), `the schema's version "0.2.0" differs from --version "0.3.0"`) {
		t.Errorf("disagreeing versions: err = %v", err)
	}
	spec = fixtureSpec(t)
	if err := prepareSpec(&spec, ""); err == nil || !strings.Contains(err.Error(), "no version") {
		t.Errorf("no version anywhere: err = %v", err)
	}
	if err := prepareSpec(&spec, "v0.3"); err == nil || !strings.Contains(err.Error(), `"v0.3" is not a semantic version`) {
		t.Errorf("a malformed version: err = %v", err)
	}
}

func TestPrepareSpecAddsLanguageDefaultsUnderTheSchemasOwn(t *testing.T) {
	spec := fixtureSpec(t)
	spec.Language = map[string]schema.RawMessage{"go": schema.RawMessage(`{"rootPackageName":"runpodiac","generics":"none"}`)}
	if err := prepareSpec(&spec, "0.3.0"); err != nil {
		t.Fatal(err)
	}
	var goInfo, pyInfo map[string]any
	if err := json.Unmarshal(spec.Language["go"], &goInfo); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(spec.Language["python"], &pyInfo); err != nil {
		t.Fatal(err)
	}
	wantGo := map[string]any{
		"rootPackageName": "runpodiac", "generics": "none", "respectSchemaVersion": true,
		"modulePath": "runpod-iac.local/sdk/go", "importBasePath": "runpod-iac.local/sdk/go/runpodiac",
	}
	for k, v := range wantGo {
		if goInfo[k] != v {
			t.Errorf("language.go.%s = %v, want %v", k, goInfo[k], v)
		}
	}
	if pyInfo["packageName"] != "pulumi_runpod_iac" || pyInfo["respectSchemaVersion"] != true {
		t.Errorf("language.python = %v", pyInfo)
	}

	spec = fixtureSpec(t)
	spec.Language = map[string]schema.RawMessage{"python": schema.RawMessage(`{"packageName":"custom_name"}`)}
	if err := prepareSpec(&spec, "0.3.0"); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(spec.Language["python"], &pyInfo); err != nil || pyInfo["packageName"] != "custom_name" {
		t.Errorf("the schema's own packageName was overridden: %v (%v)", pyInfo, err)
	}
}

func TestPrepareSpecRefusesALanguageSectionThatIsNotAnObject(t *testing.T) {
	spec := fixtureSpec(t)
	spec.Language = map[string]schema.RawMessage{"python": schema.RawMessage(`["x"]`)}
	err := prepareSpec(&spec, "0.3.0")
	if err == nil || !strings.Contains(err.Error(), "language.python: not a JSON object") {
		t.Fatalf("err = %v", err)
	}
}

func TestBindPackageReportsSchemaErrors(t *testing.T) {
	spec := preparedFixture(t)
	nv := spec.Resources["runpod-iac:index:NetworkVolume"]
	size := nv.InputProperties["size"]
	size.Ref = "#/types/runpod-iac:index:Missing"
	size.Type = ""
	nv.InputProperties["size"] = size
	spec.Resources["runpod-iac:index:NetworkVolume"] = nv
	_, err := bindPackage(spec)
	if err == nil || !strings.Contains(err.Error(), "runpod-iac:index:Missing") {
		t.Fatalf("err = %v, want one naming the missing type", err)
	}
}

func TestBindPackageRefusesReferencesToOtherPackages(t *testing.T) {
	spec := preparedFixture(t)
	nv := spec.Resources["runpod-iac:index:NetworkVolume"]
	name := nv.InputProperties["name"]
	name.Ref = "/aws/v6.0.0/schema.json#/types/aws:index:Region"
	name.Type = ""
	nv.InputProperties["name"] = name
	spec.Resources["runpod-iac:index:NetworkVolume"] = nv
	_, err := bindPackage(spec)
	if err == nil || !strings.Contains(err.Error(), `"aws"`) {
		t.Fatalf("err = %v, want one naming package aws", err)
	}
}
