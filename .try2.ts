import { bundlePlugin } from "./scripts/release/bundle-plugin";
void bundlePlugin("/work/release", "/tmp/bundle/plugin.js", 24).then((r) => console.log(r.bytes, r.packages.slice(0, 15)));
