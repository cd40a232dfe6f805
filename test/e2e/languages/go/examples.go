// The schema's Go examples (plugin/schema-gen reads each marked region into its resource's or
// function's description, inside a program's main), run as one program through the plugin by
// test/e2e/languages/standalone-plugin.test.ts (the inline build, RUNPOD_E2E_PROGRAM=examples).
package main

// example-header
import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	"github.com/runpod-iac/runpod-iac/plugin/sdks/go/runpodiac"
)

// end example-header

func examples(ctx *pulumi.Context) error {
	// example: NetworkVolume
	// Persistent storage in one data center; it may only grow.
	models, err := runpodiac.NewNetworkVolume(ctx, "models", &runpodiac.NetworkVolumeArgs{
		Size:         pulumi.Int(20),
		DataCenterId: pulumi.String("EU-RO-1"),
	})
	if err != nil {
		return err
	}
	ctx.Export("volumeId", models.ID())
	// end example

	// example: Template
	// The image and environment a serverless worker runs; API_TOKEN stays a secret.
	worker, err := runpodiac.NewTemplate(ctx, "worker", &runpodiac.TemplateArgs{
		ImageName:    pulumi.String("ghcr.io/acme/worker:1.4.2"),
		IsServerless: pulumi.Bool(true),
		Env: pulumi.StringMap{
			"MODEL":     pulumi.String("llama-3-8b"),
			"API_TOKEN": config.RequireSecret(ctx, "apiToken"),
		},
	})
	if err != nil {
		return err
	}
	ctx.Export("templateId", worker.ID())
	// end example

	// example: ServerlessEndpoint
	// A queue-based endpoint running a template on these cards, scaling to zero when idle.
	echo, err := runpodiac.NewTemplate(ctx, "echo", &runpodiac.TemplateArgs{
		ImageName:    pulumi.String("ghcr.io/acme/echo:1.0"),
		IsServerless: pulumi.Bool(true),
	})
	if err != nil {
		return err
	}
	api, err := runpodiac.NewServerlessEndpoint(ctx, "api", &runpodiac.ServerlessEndpointArgs{
		TemplateId:  echo.ID(),
		GpuTypeIds:  pulumi.StringArray{pulumi.String("NVIDIA L4"), pulumi.String("NVIDIA RTX A5000")},
		WorkersMax:  pulumi.Int(2),
		IdleTimeout: pulumi.Int(5),
	})
	if err != nil {
		return err
	}
	ctx.Export("endpointUrl", api.Url)
	// end example

	// example: ContainerRegistryAuth
	// A private registry's credential, which a template names to pull its image.
	ghcr, err := runpodiac.NewContainerRegistryAuth(ctx, "ghcr", &runpodiac.ContainerRegistryAuthArgs{
		Username: pulumi.String("deploy-bot"),
		Password: config.RequireSecret(ctx, "registryPassword"),
	})
	if err != nil {
		return err
	}
	ctx.Export("registryAuthId", ghcr.ID())
	// end example

	// example: Pod
	// A CPU pod of four memory-optimized vCPUs; DesiredStatus "EXITED" stops it, "RUNNING" starts it again.
	prep, err := runpodiac.NewPod(ctx, "prep", &runpodiac.PodArgs{
		ImageName:    pulumi.String("python:3.12-slim"),
		ComputeType:  runpodiac.ComputeTypeCPU,
		CpuFlavorIds: pulumi.StringArray{pulumi.String("cpu3m")},
		VcpuCount:    pulumi.Int(4),
	})
	if err != nil {
		return err
	}
	ctx.Export("podId", prep.ID())
	// end example

	// example: Cluster
	// An instant cluster: two pods of one NVIDIA L4 each, placed together in one data center.
	train, err := runpodiac.NewCluster(ctx, "train", &runpodiac.ClusterArgs{
		Type:           pulumi.String("TRAINING"),
		GpuTypeId:      pulumi.String("NVIDIA L4"),
		GpuCountPerPod: pulumi.Int(1),
		PodCount:       pulumi.Int(2),
		ImageName:      pulumi.String("runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04"),
	})
	if err != nil {
		return err
	}
	ctx.Export("clusterId", train.ID())
	// end example

	// example: Secret
	// An account secret: env values refer to it by its reference, and the value never shows.
	hfToken, err := runpodiac.NewSecret(ctx, "hf-token", &runpodiac.SecretArgs{
		Value: config.RequireSecret(ctx, "hfToken"),
	})
	if err != nil {
		return err
	}
	ctx.Export("hfTokenReference", hfToken.Reference)
	// end example

	// example: VolumeFiles
	// Files on a volume, written through its S3-compatible API; an update sends only what changed.
	// `hash` changes with any file: an endpoint's env holding it rolls the workers onto new files.
	data, err := runpodiac.NewNetworkVolume(ctx, "data", &runpodiac.NetworkVolumeArgs{
		Size:         pulumi.Int(10),
		DataCenterId: pulumi.String("EU-RO-1"),
	})
	if err != nil {
		return err
	}
	tokenizer, err := runpodiac.NewVolumeFiles(ctx, "tokenizer", &runpodiac.VolumeFilesArgs{
		NetworkVolumeId: data.ID(),
		VolumeSizeGb:    data.Size,
		Prefix:          pulumi.String("models/tiny"),
		Files: pulumi.NewAssetArchive(map[string]interface{}{
			"config.json": pulumi.NewStringAsset(`{"layers": 2}`),
		}),
	})
	if err != nil {
		return err
	}
	ctx.Export("filesHash", tokenizer.Hash)
	// end example

	// example: getGpuTypes
	// The GPU types serverless endpoints can run on now.
	gpus, err := runpodiac.GetGpuTypes(ctx, &runpodiac.GetGpuTypesArgs{
		Include: []runpodiac.GetGpuTypesArgsInclude{"AVAILABILITY"},
		Product: []runpodiac.CatalogProduct{"SERVERLESS"},
	})
	if err != nil {
		return err
	}
	ctx.Export("gpuTypeCount", pulumi.Int(len(gpus.GpuTypes)))
	// end example

	// example: getCpuFlavors
	// The CPU flavors of the catalog, with their vCPU range.
	flavors, err := runpodiac.GetCpuFlavors(ctx, &runpodiac.GetCpuFlavorsArgs{})
	if err != nil {
		return err
	}
	ctx.Export("cpuFlavorCount", pulumi.Int(len(flavors.CpuFlavors)))
	// end example

	// example: getDataCenters
	// The data centers in Europe.
	europe, err := runpodiac.GetDataCenters(ctx, &runpodiac.GetDataCentersArgs{Regions: []string{"EUROPE"}})
	if err != nil {
		return err
	}
	ctx.Export("dataCenterCount", pulumi.Int(len(europe.DataCenters)))
	// end example
	return nil
}
