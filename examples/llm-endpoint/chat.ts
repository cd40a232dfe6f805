/**
 * One chat completion from the endpoint, through the `openai` package unchanged:
 *
 *   RUNPOD_API_KEY=... npx ts-node chat.ts "$(pulumi stack output openAiBaseUrl)" "say hello to the world"
 *
 * The platform takes the account's API key as the OpenAI key. The model is the one the worker
 * serves (its `MODEL_NAME`), read from the endpoint's `/models`, so nothing here repeats it.
 * Prints `<model>: <answer>`.
 */
import OpenAI from "openai";

async function main(): Promise<void> {
  const [baseURL, ...words] = process.argv.slice(2);
  const apiKey = process.env.RUNPOD_API_KEY;
  if (!baseURL || words.length === 0) throw new Error("usage: chat.ts <openAiBaseUrl> <prompt...>");
  if (!apiKey) throw new Error("RUNPOD_API_KEY is not set: the endpoint takes the account's API key");

  const openai = new OpenAI({ baseURL, apiKey });
  const models = await openai.models.list();
  const model = models.data[0]?.id;
  if (!model) throw new Error(`${baseURL}/models lists no model`);
  const reply = await openai.chat.completions.create({
    model,
    messages: [{ role: "user", content: words.join(" ") }],
    max_tokens: 256,
  });
  console.log(`${reply.model}: ${reply.choices[0]?.message.content ?? ""}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
