"""Runs __main__.py, the program users run with `pulumi up`, through the Automation API's inline mode.

The end-to-end tests run Python programs this way: this process serves the language runtime
itself, so the engine needs no Python language host. One step per call:

    python inline.py up|preview|destroy

The environment names the stack and what it runs on: RUNPOD_E2E_WORK_DIR (the project folder the
Automation API writes Pulumi.yaml and the stack's settings into), RUNPOD_E2E_STACK,
RUNPOD_E2E_PULUMI_ROOT (the folder whose bin/ holds the CLI), RUNPOD_E2E_CONFIG (the stack's
config, JSON: {"key": {"value": "...", "secret": true}}), RUNPOD_E2E_PROGRAM (another program file
to run instead of __main__.py, such as a snippet of docs/languages.md), and the PULUMI_* variables. The
engine's output goes to stderr; stdout gets one line of JSON: {"ok", "changes", "outputs"} (secret
outputs as "[secret]", so the result never carries a secret in plaintext), or {"ok": false, "error"}.
"""

import json
import os
import runpy
import sys

from pulumi import automation as auto

PROGRAM = os.environ.get("RUNPOD_E2E_PROGRAM") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "__main__.py")


def program() -> None:
    runpy.run_path(PROGRAM)


def plain_outputs(outputs) -> dict:
    return {k: {"value": "[secret]" if v.secret else v.value, "secret": v.secret} for k, v in outputs.items()}


def main(step: str) -> int:
    env = os.environ
    stack = auto.create_or_select_stack(
        stack_name=env["RUNPOD_E2E_STACK"],
        project_name="runpod-deployment",
        program=program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=env["RUNPOD_E2E_WORK_DIR"],
            pulumi_command=auto.PulumiCommand(root=env["RUNPOD_E2E_PULUMI_ROOT"]),
            project_settings=auto.ProjectSettings(name="runpod-deployment", runtime="python"),
        ),
    )
    config = json.loads(env.get("RUNPOD_E2E_CONFIG", "{}"))
    stack.set_all_config({k: auto.ConfigValue(v["value"], v.get("secret", False)) for k, v in config.items()})
    log = sys.stderr.write
    if step == "up":
        result = stack.up(on_output=log, show_secrets=False)
        changes, outputs = result.summary.resource_changes or {}, plain_outputs(result.outputs)
    elif step == "preview":
        result = stack.preview(on_output=log)
        changes, outputs = result.change_summary, {}
    elif step == "destroy":
        result = stack.destroy(on_output=log, show_secrets=False)
        changes, outputs = result.summary.resource_changes or {}, {}
    else:
        raise ValueError(f"step {step!r}: must be up, preview or destroy")
    print(json.dumps({"ok": True, "changes": {getattr(k, "value", k): n for k, n in changes.items()}, "outputs": outputs}))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))
    except Exception as error:  # the test reads the reason from the JSON line
        print(json.dumps({"ok": False, "error": str(error)}))
        sys.exit(1)
