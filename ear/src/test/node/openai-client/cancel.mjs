// The official `openai` client follows a background response as a stream and cancels it midway
// (ResponseStreamIT holds the model, so the response is running when the cancel comes): the stream
// must end the way the SDK takes as an ending, not as an error it throws. Prints one JSON line with
// what it saw; exits 1 with the reason at the first surprise. Arguments: the base URL, the API key, the input.
import OpenAI from "openai";

const client = new OpenAI({ baseURL: process.argv[2], apiKey: process.argv[3], maxRetries: 0 });

const stream = await client.responses.create({ model: "m", input: process.argv[4], background: true, stream: true });
const types = [];
let id = null;
let last = null;
for await (const event of stream) {
  types.push(event.type);
  if (event.type === "response.created") {
    id = event.response.id;
  }
  if (event.type === "response.in_progress") {
    const cancelled = await client.responses.cancel(id);
    if (cancelled.status !== "cancelled") {
      throw new Error("expected the cancel to answer status cancelled, got " + cancelled.status);
    }
  }
  last = event;
}
const stored = await client.responses.retrieve(id);
console.log(JSON.stringify({
  ok: true,
  types,
  last_type: last.type,
  last_status: last.response.status,
  stored_status: stored.status,
}));
