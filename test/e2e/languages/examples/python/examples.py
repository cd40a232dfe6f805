"""The schema's Python examples (plugin/schema-gen reads each marked region into its resource's or
function's description), run as one program through the plugin by test/e2e/languages/standalone-plugin.test.ts.

Each region stands alone: with the header, it is a whole program.
"""

# example-header
import pulumi
import pulumi_runpod_iac as runpod

config = pulumi.Config()
# end example-header

# example: NetworkVolume
# Persistent storage in one data center; it may only grow.
models = runpod.NetworkVolume("models", size=20, data_center_id="EU-RO-1")
pulumi.export("volumeId", models.id)
# end example

# example: Template
# The image and environment a serverless worker runs; API_TOKEN stays a secret.
worker = runpod.Template(
    "worker",
    image_name="ghcr.io/acme/worker:1.4.2",
    is_serverless=True,
    env={"MODEL": "llama-3-8b", "API_TOKEN": config.require_secret("apiToken")},
)
pulumi.export("templateId", worker.id)
# end example

# example: ServerlessEndpoint
# A queue-based endpoint running a template on these cards, scaling to zero when idle.
echo = runpod.Template("echo", image_name="ghcr.io/acme/echo:1.0", is_serverless=True)
api = runpod.ServerlessEndpoint(
    "api",
    template_id=echo.id,
    gpu_type_ids=["NVIDIA L4", "NVIDIA RTX A5000"],
    workers_max=2,
    idle_timeout=5,
)
pulumi.export("endpointUrl", api.url)
# end example

# example: ContainerRegistryAuth
# A private registry's credential, which a template names to pull its image.
ghcr = runpod.ContainerRegistryAuth("ghcr", username="deploy-bot", password=config.require_secret("registryPassword"))
pulumi.export("registryAuthId", ghcr.id)
# end example

# example: Pod
# A CPU pod of four memory-optimized vCPUs; desired_status="EXITED" stops it, "RUNNING" starts it again.
prep = runpod.Pod("prep", image_name="python:3.12-slim", compute_type="CPU", cpu_flavor_ids=["cpu3m"], vcpu_count=4)
pulumi.export("podId", prep.id)
# end example

# example: Cluster
# An instant cluster: two pods of one NVIDIA L4 each, placed together in one data center.
train = runpod.Cluster(
    "train",
    type="TRAINING",
    gpu_type_id="NVIDIA L4",
    gpu_count_per_pod=1,
    pod_count=2,
    image_name="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
)
pulumi.export("clusterId", train.id)
# end example

# example: Secret
# An account secret: env values refer to it by its reference, and the value never shows.
hf_token = runpod.Secret("hf-token", value=config.require_secret("hfToken"))
pulumi.export("hfTokenReference", hf_token.reference)
# end example

# example: VolumeFiles
# Files on a volume, written through its S3-compatible API; an update sends only what changed.
# `hash` changes with any file: an endpoint's env holding it rolls the workers onto new files.
data = runpod.NetworkVolume("data", size=10, data_center_id="EU-RO-1")
tokenizer = runpod.VolumeFiles(
    "tokenizer",
    network_volume_id=data.id,
    volume_size_gb=data.size,
    prefix="models/tiny",
    files=pulumi.AssetArchive({"config.json": pulumi.StringAsset('{"layers": 2}')}),
)
pulumi.export("filesHash", tokenizer.hash)
# end example

# example: getGpuTypes
# The GPU types serverless endpoints can run on now.
gpus = runpod.get_gpu_types(include=["AVAILABILITY"], product=["SERVERLESS"])
pulumi.export("gpuTypeIds", [g.id for g in gpus.gpu_types])
# end example

# example: getCpuFlavors
# The CPU flavors of the catalog, with their vCPU range.
flavors = runpod.get_cpu_flavors()
pulumi.export("cpuFlavorIds", [f.id for f in flavors.cpu_flavors])
# end example

# example: getDataCenters
# The data centers in Europe.
europe = runpod.get_data_centers(regions=["EUROPE"])
pulumi.export("dataCenterIds", [d.id for d in europe.data_centers])
# end example
