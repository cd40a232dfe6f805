// The standalone plugin's stand-in for sdk/undici-agent.ts (scripts/release/bundle-plugin.ts puts it
// in place): the same class, undici's Agent from its own module, bundled by name instead of found on
// disk with createRequire.
exports.AGENT_MODULE = "undici/lib/dispatcher/agent";
exports.Agent = require("undici/lib/dispatcher/agent");
