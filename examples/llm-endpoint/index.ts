/**
 * A vLLM serverless endpoint whose Hugging Face token never sits in a template (management API
 * v2). The token is an account secret; the template's env refers to it by its placeholder, which
 * the platform replaces with the value when a worker starts. The endpoint answers the OpenAI API
 * at the exported `openAiBaseUrl`: `chat.ts` calls it through the `openai` package.
 */
import * as pulumi from "@pulumi/pulumi";
import { Secret, ServerlessEndpoint, Template } from "runpod-iac";

const config = new pulumi.Config();

// 1. The token, from the stack's secret config (`pulumi config set --secret hfToken hf_...`), kept
// by the platform as an account secret. Pulumi holds it as ciphertext in the state; the platform
// never returns it to anyone.
const hfToken = new Secret("hf-token", {
  value: config.requireSecret("hfToken"),
  description: "Hugging Face read token of the vLLM workers",
});

// 2. The official vLLM worker. `MODEL_NAME` is the Hugging Face id of the weights it downloads at
// start (with HF_TOKEN, for a gated model); `HF_TOKEN` holds only `{{ RUNPOD_SECRET_<name> }}`,
// which is all the template, the API and the console ever show.
const model = config.get("model") ?? "Qwen/Qwen3-0.6B";
const vllm = new Template("vllm", {
  imageName: "runpod/worker-v1-vllm:v2.25.2",
  isServerless: true,
  containerDiskInGb: 30,
  env: { MODEL_NAME: model, HF_TOKEN: hfToken.reference },
  startSsh: false,
  startJupyter: false,
});

// 3. A queue endpoint on 24 GB cards: no worker while idle, at most two, each stopped after a
// minute without work. FlashBoot keeps the model's start short after the first.
const llm = new ServerlessEndpoint("llm", {
  templateId: vllm.id,
  gpuPools: ["ADA_24", "AMPERE_24"],
  workersMin: 0,
  workersMax: 2,
  idleTimeout: 60,
  flashboot: "FLASHBOOT",
});

export const endpointId = llm.id;
/** The placeholder the template's env holds (never the token). */
export const tokenReference = hfToken.reference;
/** The model `chat.ts` asks for: the worker serves it under its `MODEL_NAME`. */
export const servedModel = model;
/** Where the OpenAI API of the endpoint is: `{url}/openai/v1`, with the account's API key as the OpenAI key. */
export const openAiBaseUrl = pulumi.interpolate`${llm.url}/openai/v1`;
