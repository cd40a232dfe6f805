//go:build inline

// Built with -tags inline, the program runs itself through the Automation API's inline mode,
// as the end-to-end tests run it: this process serves the language runtime, so the engine needs
// no Go language host. One step per run:
//
//	deployment up|preview|destroy
//
// The environment names the stack and what it runs on: RUNPOD_E2E_WORK_DIR (the project folder
// the Automation API writes Pulumi.yaml and the stack's settings into), RUNPOD_E2E_STACK,
// RUNPOD_E2E_PULUMI_ROOT (the folder whose bin/ holds the CLI), RUNPOD_E2E_CONFIG (the stack's
// config, JSON: {"key": {"value": "...", "secret": true}}), RUNPOD_E2E_PROGRAM (`examples`: the
// schema's examples of examples.go instead of the deployment), and the PULUMI_* variables. The
// engine's output goes to stderr; stdout gets one line of JSON: {"ok", "changes", "outputs"}
// (secret outputs as "[secret]", so the result never carries a secret in plaintext), or
// {"ok": false, "error"}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

type outputValue struct {
	Value  any  `json:"value"`
	Secret bool `json:"secret"`
}

type stepResult struct {
	OK      bool                   `json:"ok"`
	Changes map[string]int         `json:"changes,omitempty"`
	Outputs map[string]outputValue `json:"outputs,omitempty"`
	Error   string                 `json:"error,omitempty"`
}

func main() {
	step := ""
	if len(os.Args) > 1 {
		step = os.Args[1]
	}
	result, err := run(context.Background(), step)
	if err != nil {
		result = stepResult{Error: err.Error()}
	}
	line, _ := json.Marshal(result)
	fmt.Println(string(line))
	if err != nil {
		os.Exit(1)
	}
}

func run(ctx context.Context, step string) (stepResult, error) {
	cmd, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: os.Getenv("RUNPOD_E2E_PULUMI_ROOT")})
	if err != nil {
		return stepResult{}, err
	}
	project := workspace.Project{Name: "runpod-deployment", Runtime: workspace.NewProjectRuntimeInfo("go", nil)}
	program := deploy
	// RUNPOD_E2E_PROGRAM=examples runs the schema's examples (examples.go) instead of the deployment.
	if os.Getenv("RUNPOD_E2E_PROGRAM") == "examples" {
		program = examples
	}
	stack, err := auto.UpsertStackInlineSource(ctx, os.Getenv("RUNPOD_E2E_STACK"), "runpod-deployment", program,
		auto.WorkDir(os.Getenv("RUNPOD_E2E_WORK_DIR")), auto.Pulumi(cmd), auto.Project(project))
	if err != nil {
		return stepResult{}, err
	}
	var config map[string]struct {
		Value  string `json:"value"`
		Secret bool   `json:"secret"`
	}
	if raw := os.Getenv("RUNPOD_E2E_CONFIG"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &config); err != nil {
			return stepResult{}, fmt.Errorf("RUNPOD_E2E_CONFIG: %w", err)
		}
	}
	values := auto.ConfigMap{}
	for key, v := range config {
		values[key] = auto.ConfigValue{Value: v.Value, Secret: v.Secret}
	}
	if err := stack.SetAllConfig(ctx, values); err != nil {
		return stepResult{}, err
	}
	switch step {
	case "up":
		res, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr), optup.ErrorProgressStreams(os.Stderr))
		if err != nil {
			return stepResult{}, err
		}
		return stepResult{OK: true, Changes: derefChanges(res.Summary.ResourceChanges), Outputs: plain(res.Outputs)}, nil
	case "preview":
		res, err := stack.Preview(ctx, optpreview.ProgressStreams(os.Stderr), optpreview.ErrorProgressStreams(os.Stderr))
		if err != nil {
			return stepResult{}, err
		}
		changes := map[string]int{}
		for op, n := range res.ChangeSummary {
			changes[string(op)] = n
		}
		return stepResult{OK: true, Changes: changes}, nil
	case "destroy":
		res, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr), optdestroy.ErrorProgressStreams(os.Stderr))
		if err != nil {
			return stepResult{}, err
		}
		return stepResult{OK: true, Changes: derefChanges(res.Summary.ResourceChanges)}, nil
	}
	return stepResult{}, fmt.Errorf("step %q: must be up, preview or destroy", step)
}

func derefChanges(changes *map[string]int) map[string]int {
	if changes == nil {
		return map[string]int{}
	}
	return *changes
}

// plain drops secret outputs' values, so the printed result never holds a secret in plaintext.
func plain(outputs auto.OutputMap) map[string]outputValue {
	result := map[string]outputValue{}
	for key, out := range outputs {
		if out.Secret {
			result[key] = outputValue{Value: "[secret]", Secret: true}
		} else {
			result[key] = outputValue{Value: out.Value}
		}
	}
	return result
}
