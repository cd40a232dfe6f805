// End-to-end program of an instant cluster: where it may go is asked of the catalog (European data
// centers, in the Promise form; those with the GPU type available for clusters, in the Output
// form), and its name and size come from stack config so tests can rename and replace it.
const pulumi = require("@pulumi/pulumi");
const { Cluster, getDataCenters, getGpuTypesOutput } = require("runpod-iac");

const config = new pulumi.Config("e2e");
const gpuTypeId = "NVIDIA L4";
const useCatalog = config.getBoolean("useCatalog") ?? true;

let dataCenterIds;
let catalogChoice;
if (useCatalog) {
  const europe = getDataCenters({ regions: ["EUROPE"] }).then(({ dataCenters }) => dataCenters.map((d) => d.id));
  const available = getGpuTypesOutput({ include: ["AVAILABILITY"], product: ["CLUSTER"] }).apply(({ gpuTypes }) =>
    (gpuTypes.find((g) => g.id === gpuTypeId)?.dataCenters ?? [])
      .filter((d) => d.availability !== "NONE")
      .map((d) => d.id),
  );
  dataCenterIds = pulumi.all([europe, available]).apply(([eu, ok]) => eu.filter((id) => ok.includes(id)).sort());
  catalogChoice = dataCenterIds;
}

const cluster = new Cluster("train", {
  name: config.get("name"),
  type: "TRAINING",
  gpuTypeId,
  gpuCountPerPod: 1,
  podCount: config.getNumber("podCount") ?? 2,
  imageName: "trainer:1.0",
  env: { EPOCHS: "3", HF_TOKEN: config.requireSecret("hfToken") },
  ports: ["22/tcp"],
  dataCenterIds,
});

exports.catalogChoice = catalogChoice;
exports.clusterId = cluster.id;
exports.name = cluster.name;
exports.dataCenterId = cluster.dataCenterId;
exports.pods = cluster.pods;
exports.costPerHr = cluster.costPerHr;
exports.env = cluster.env;
