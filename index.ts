export * from "./sdk";
