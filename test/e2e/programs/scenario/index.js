// Declares the resources listed in scenario.json (a policy scenario of policy/scenarios).
const fs = require("node:fs");
const path = require("node:path");
const { NetworkVolume, ServerlessEndpoint } = require("pulumi-runpod");

const scenario = JSON.parse(fs.readFileSync(path.join(__dirname, "scenario.json"), "utf8"));
const classes = { NetworkVolume, ServerlessEndpoint };
for (const resource of scenario.resources) {
  new classes[resource.type](resource.name, resource.props);
}
