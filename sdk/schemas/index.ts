export * from "./endpoint";
export * from "./job";
export * from "./limits";
export * from "./network-volume";
export * from "./platform-enums";
export * from "./validation";
