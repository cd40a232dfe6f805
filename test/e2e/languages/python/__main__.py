"""A whole serverless deployment on RunPod, in Python.

A volume for model weights, the weights put on it from ./weights, the worker's template (one
environment value is a secret) and a queue-based endpoint that runs it, mounting the volume. `pulumi up` runs this file; the
plugin `runpod-iac` must be installed (npx runpod-iac plugin install) and the SDK pip-installed
(npx runpod-iac sdk python --out sdk && pip install ./sdk).
"""

import pulumi
import pulumi_runpod_iac as runpod

config = pulumi.Config()
data_center_id = config.get("dataCenterId") or "EU-RO-1"

# Persistent storage for model weights. It may only grow: a larger size updates it in place, a
# smaller one is refused at preview, before anything is sent to the platform.
models = runpod.NetworkVolume(
    "models",
    size=config.get_int("volumeSize") or 20,
    data_center_id=data_center_id,
)

# The weights: the files of ./weights under models/ on the volume, through its S3-compatible API.
# An update sends only the files whose content changed; `hash` changes with any of them.
weights = runpod.VolumeFiles(
    "weights",
    network_volume_id=models.id,
    prefix="models",
    files=pulumi.FileArchive("./weights"),
)

# The worker: its image and environment. API_TOKEN comes from a secret config value and stays a
# secret: ciphertext in the state, masked in previews and logs. A new image rolls the endpoint onto
# it: `pulumi up` returns once the endpoint serves it, and puts it back if the new image fails.
worker = runpod.Template(
    "worker",
    image_name=config.get("imageName") or "ghcr.io/acme/echo:1.0",
    is_serverless=True,
    env={"GREETING": "hello", "API_TOKEN": config.require_secret("apiToken")},
)

# A queue-based endpoint on these cards, scaling to zero when idle, with the volume mounted.
api = runpod.ServerlessEndpoint(
    "api",
    template_id=worker.id,
    gpu_type_ids=["NVIDIA L4", "NVIDIA RTX A5000"],
    workers_min=config.get_int("workersMin") or 0,
    workers_max=2,
    idle_timeout=5,
    network_volume_id=models.id,
    data_center_ids=[data_center_id],
)

pulumi.export("volumeId", models.id)
pulumi.export("volumeSize", models.size)
pulumi.export("templateId", worker.id)
pulumi.export("endpointId", api.id)
pulumi.export("endpointUrl", api.url)
pulumi.export("weightsHash", weights.hash)
pulumi.export("weightsFiles", weights.file_count)
