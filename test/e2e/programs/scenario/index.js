// Declares the resources listed in scenario.json (a policy scenario of policy/scenarios), in order;
// `refs` pass the `id` of an earlier resource, as `networkVolumeId: volume.id` does in a program;
// `secretProps` (dotted paths, `env.TOKEN`) are wrapped in pulumi.secret, as a program marks them.
const fs = require("node:fs");
const path = require("node:path");
const pulumi = require("@pulumi/pulumi");
const runpod = require("runpod-iac");

const scenario = JSON.parse(fs.readFileSync(path.join(__dirname, "scenario.json"), "utf8"));
const declared = {};
for (const resource of scenario.resources) {
  const Resource = runpod[resource.type];
  if (typeof Resource !== "function") throw new Error(`runpod-iac has no resource class ${resource.type}`);
  const props = JSON.parse(JSON.stringify(resource.props));
  for (const dotted of resource.secretProps ?? []) {
    const keys = dotted.split(".");
    const last = keys.pop();
    const parent = keys.reduce((o, k) => o[k], props);
    parent[last] = pulumi.secret(parent[last]);
  }
  for (const [property, ref] of Object.entries(resource.refs ?? {})) {
    props[property] = Array.isArray(ref) ? ref.map((name) => declared[name].id) : declared[ref].id;
  }
  declared[resource.name] = new Resource(resource.name, props);
}
