// The Vercel AI SDK (ai@6) with its Open Responses provider against Switchboard's /responses
// (echo engine): generateText, streamText, a tool call handed back, and a tool round trip the SDK
// executes itself. The provider is stateless: it replays the whole conversation every time.
// Prints one JSON line with what it saw; exits 1 with the reason at the first surprise.
import { createOpenResponses } from "@ai-sdk/open-responses";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";

const provider = createOpenResponses({ name: "switchboard", url: process.argv[2] + "/responses", apiKey: "any-key" });
const model = provider("echo");

function expect(condition, what) {
  if (!condition) {
    throw new Error("expected " + what);
  }
}

const generated = await generateText({ model, prompt: "hello from vercel", maxRetries: 0 });
expect(generated.text === "hello from vercel", "text 'hello from vercel', got " + generated.text);
expect(generated.finishReason === "stop", "finish reason stop, got " + generated.finishReason);

const stream = streamText({ model, prompt: "streamed from vercel", maxRetries: 0 });
let streamed = "";
let pieces = 0;
for await (const delta of stream.textStream) {
  streamed += delta;
  pieces++;
}
expect(streamed === "streamed from vercel", "streamed text, got " + streamed);

const inputSchema = z.object({ city: z.string() });
const asked = await generateText({
  model,
  prompt: "Paris",
  tools: { get_weather: tool({ description: "The weather in a city.", inputSchema }) },
  maxRetries: 0,
});
expect(asked.finishReason === "tool-calls", "finish reason tool-calls, got " + asked.finishReason);
const call = asked.toolCalls[0];
expect(call && call.toolName === "get_weather" && call.input.city === "Paris", "a get_weather call for Paris, got "
  + JSON.stringify(asked.toolCalls));

const answered = await generateText({
  model,
  prompt: "Oslo",
  tools: { get_weather: tool({ description: "The weather in a city.", inputSchema, execute: async ({ city }) => "18C in " + city }) },
  stopWhen: stepCountIs(3),
  maxRetries: 0,
});
expect(answered.steps.length === 2, "two steps (the call, then the answer), got " + answered.steps.length);
expect(answered.text.includes("18C in Oslo"), "the tool's result in the answer, got " + answered.text);

console.log(JSON.stringify({
  ok: true,
  generated: generated.text,
  streamed,
  pieces,
  tool_call: call.toolName,
  tool_answer: answered.text,
}));
