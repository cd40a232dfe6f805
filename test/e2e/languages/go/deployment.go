// A whole serverless deployment on RunPod, in Go: a volume for model weights, the weights put on it
// from ./weights, the worker's template (one environment value is a secret) and a queue-based
// endpoint that runs it, mounting the volume.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	"github.com/runpod-iac/runpod-iac/plugin/sdks/go/runpodiac"
)

func deploy(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	dataCenterID := cfg.Get("dataCenterId")
	if dataCenterID == "" {
		dataCenterID = "EU-RO-1"
	}
	size := cfg.GetInt("volumeSize")
	if size == 0 {
		size = 20
	}
	image := cfg.Get("imageName")
	if image == "" {
		image = "ghcr.io/acme/echo:1.0"
	}

	// Persistent storage for model weights. It may only grow: a larger size updates it in place, a
	// smaller one is refused at preview, before anything is sent to the platform.
	models, err := runpodiac.NewNetworkVolume(ctx, "models", &runpodiac.NetworkVolumeArgs{
		Size:         pulumi.Int(size),
		DataCenterId: pulumi.String(dataCenterID),
	})
	if err != nil {
		return err
	}

	// The weights: the files of ./weights under models/ on the volume, through its S3-compatible
	// API. An update sends only the files whose content changed; Hash changes with any of them.
	weights, err := runpodiac.NewVolumeFiles(ctx, "weights", &runpodiac.VolumeFilesArgs{
		NetworkVolumeId: models.ID(),
		Prefix:          pulumi.String("models"),
		Files:           pulumi.NewFileArchive("./weights"),
	})
	if err != nil {
		return err
	}

	// The worker: its image and environment. API_TOKEN comes from a secret config value and stays a
	// secret: ciphertext in the state, masked in previews and logs. A new image rolls the endpoint
	// onto it: `pulumi up` returns once the endpoint serves it, and puts it back if the image fails.
	worker, err := runpodiac.NewTemplate(ctx, "worker", &runpodiac.TemplateArgs{
		ImageName:    pulumi.String(image),
		IsServerless: pulumi.Bool(true),
		Env: pulumi.StringMap{
			"GREETING":  pulumi.String("hello"),
			"API_TOKEN": cfg.RequireSecret("apiToken"),
		},
	})
	if err != nil {
		return err
	}

	// A queue-based endpoint on these cards, scaling to zero when idle, with the volume mounted.
	api, err := runpodiac.NewServerlessEndpoint(ctx, "api", &runpodiac.ServerlessEndpointArgs{
		TemplateId:      worker.ID(),
		GpuTypeIds:      pulumi.StringArray{pulumi.String("NVIDIA L4"), pulumi.String("NVIDIA RTX A5000")},
		WorkersMin:      pulumi.Int(cfg.GetInt("workersMin")),
		WorkersMax:      pulumi.Int(2),
		IdleTimeout:     pulumi.Int(5),
		NetworkVolumeId: models.ID(),
		DataCenterIds:   pulumi.StringArray{pulumi.String(dataCenterID)},
	})
	if err != nil {
		return err
	}

	ctx.Export("volumeId", models.ID())
	ctx.Export("volumeSize", models.Size)
	ctx.Export("templateId", worker.ID())
	ctx.Export("endpointId", api.ID())
	ctx.Export("endpointUrl", api.Url)
	ctx.Export("weightsHash", weights.Hash)
	ctx.Export("weightsFiles", weights.FileCount)
	return nil
}
