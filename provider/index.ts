export { type FieldRule, NETWORK_VOLUME_FIELDS, SERVERLESS_ENDPOINT_FIELDS } from "./field-rules";
export { NetworkVolume, type NetworkVolumeArgs } from "./network-volume";
export { ServerlessEndpoint, type ServerlessEndpointArgs } from "./serverless-endpoint";
