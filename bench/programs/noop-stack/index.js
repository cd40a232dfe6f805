// Benchmark baseline (bench/pulumi-bench.ts): `bench:count` dynamic resources whose provider
// returns at once and calls nothing, with inputs shaped like the runpod program's. What the
// runpod program costs beyond this is our provider's work and the API's.
const pulumi = require("@pulumi/pulumi");

// No read/update/delete: the dynamic provider's defaults keep the stored state and do nothing.
const noop = {
  async create(inputs) {
    return { id: `noop-${inputs.index}`, outs: inputs };
  },
};

const count = new pulumi.Config("bench").requireNumber("count");

for (let i = 0; i < count; i++) {
  const inputs =
    i % 2 === 0
      ? { index: i, size: 10, dataCenterId: "EU-RO-1" }
      : { index: i, templateId: "echo", gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"], workersMin: 0, workersMax: 1 };
  new pulumi.dynamic.Resource(noop, `noop-${i}`, inputs);
}
