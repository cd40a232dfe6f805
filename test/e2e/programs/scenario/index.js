// Declares the resources listed in scenario.json (a policy scenario of policy/scenarios), in order;
// `refs` pass the `id` of an earlier resource, as `networkVolumeId: volume.id` does in a program.
const fs = require("node:fs");
const path = require("node:path");
const runpod = require("runpod-iac");

const scenario = JSON.parse(fs.readFileSync(path.join(__dirname, "scenario.json"), "utf8"));
const declared = {};
for (const resource of scenario.resources) {
  const Resource = runpod[resource.type];
  if (typeof Resource !== "function") throw new Error(`runpod-iac has no resource class ${resource.type}`);
  const props = { ...resource.props };
  for (const [property, ref] of Object.entries(resource.refs ?? {})) {
    props[property] = Array.isArray(ref) ? ref.map((name) => declared[name].id) : declared[ref].id;
  }
  declared[resource.name] = new Resource(resource.name, props);
}
