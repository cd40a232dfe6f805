export * from "./errors";
export * from "./schemas";
