// The official `openai` client against Switchboard's responses (echo engine), at the base URL it is
// given (http://host:port/v1 or http://host:port): a response, its continuation, its input items
// paged through, a stream, a function-calling round trip, an error, a compaction that starts a new
// chain, and responses over the WebSocket transport (ResponsesWS) continued on the connection.
// Prints one JSON line with what it saw; exits 1 with the reason at the first surprise.
import OpenAI, { NotFoundError } from "openai";
import { ResponsesWS } from "openai/resources/responses/ws";

const client = new OpenAI({ baseURL: process.argv[2], apiKey: "any-key", maxRetries: 0 });

function expect(condition, what) {
  if (!condition) {
    throw new Error("expected " + what);
  }
}

const first = await client.responses.create({ model: "echo", input: "hello from node" });
expect(first.status === "completed", "status completed, got " + first.status);
expect(first.output_text === "hello from node", "output_text 'hello from node', got " + first.output_text);

const second = await client.responses.create({ model: "echo", input: "and again", previous_response_id: first.id });
expect(second.previous_response_id === first.id, "previous_response_id echoed");
expect(second.output_text === "and again", "output_text 'and again', got " + second.output_text);

// inputItems.list: the items the second response was made from (the first's input and output, then
// its own), newest first, paged two at a time by the SDK.
const listed = [];
for await (const item of client.responses.inputItems.list(second.id, { limit: 2 })) {
  listed.push(item);
}
expect(listed.length === 3, "three input items, got " + JSON.stringify(listed));
expect(new Set(listed.map((item) => item.id)).size === 3, "each with its own id");
expect(listed[0].role === "user" && JSON.stringify(listed[0].content).includes("and again"), "the newest first");
expect(listed[2].role === "user" && JSON.stringify(listed[2].content).includes("hello from node"), "the oldest last");
const oldestFirst = await client.responses.inputItems.list(second.id, { order: "asc", limit: 1 });
expect(oldestFirst.data.length === 1 && oldestFirst.data[0].id === listed[2].id && oldestFirst.has_more === true,
  "one page of one, oldest first, more to come");

const stream = await client.responses.create({ model: "echo", input: "streamed words from node", stream: true });
const types = [];
let deltas = "";
let completed = null;
for await (const event of stream) {
  types.push(event.type);
  if (event.type === "response.output_text.delta") {
    deltas += event.delta;
  }
  if (event.type === "response.completed") {
    completed = event.response;
  }
}
expect(types[0] === "response.created", "response.created first, got " + types[0]);
expect(completed !== null && completed.output[0].content[0].text === "streamed words from node", "a completed response");
expect(deltas === "streamed words from node", "deltas adding up to the text, got " + deltas);

const tools = [{
  type: "function",
  name: "get_weather",
  description: "The weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
}];
const asked = await client.responses.create({ model: "echo", input: "Paris", tools });
const call = asked.output.find((item) => item.type === "function_call");
expect(call && call.name === "get_weather", "a call of get_weather");
expect(JSON.parse(call.arguments).city === "Paris", "its city argument, got " + call.arguments);
const answered = await client.responses.create({
  model: "echo",
  previous_response_id: asked.id,
  input: [{ type: "function_call_output", call_id: call.call_id, output: "18C and sunny" }],
  tools,
});
expect(answered.output_text.includes("18C and sunny"), "the tool's output in the answer, got " + answered.output_text);

let notFound = null;
try {
  await client.responses.create({ model: "echo", input: "x", previous_response_id: "resp_unknown" });
} catch (e) {
  notFound = e;
}
expect(notFound instanceof NotFoundError, "a NotFoundError for an unknown previous response");
expect(notFound.status === 404 && notFound.code === "previous_response_not_found", "status 404, code previous_response_not_found");

const compacted = await client.responses.compact({ model: "echo", previous_response_id: second.id, input: "compact it" });
expect(compacted.object === "response.compaction", "a response.compaction, got " + compacted.object);
const compaction = compacted.output[0];
expect(compaction.type === "compaction" && compaction.encrypted_content.length > 0, "a compaction item");
const fresh = await client.responses.create({
  model: "echo",
  input: [compaction, { role: "user", content: "after compaction" }],
});
expect(fresh.output_text === "after compaction", "a new chain from the compaction, got " + fresh.output_text);

// compact({model, previous_response_id}) as the SDK's own example calls it: no input.
const compactedChain = await client.responses.compact({ model: "echo", previous_response_id: second.id });
expect(compactedChain.object === "response.compaction" && compactedChain.output[0].type === "compaction",
  "a compaction of the chain alone, got " + JSON.stringify(compactedChain));

// delete: afterwards the response is not found, and a continuation naming it is refused.
const doomed = await client.responses.create({ model: "echo", input: "delete me" });
await client.responses.delete(doomed.id);
let gone = null;
try {
  await client.responses.retrieve(doomed.id);
} catch (e) {
  gone = e;
}
expect(gone instanceof NotFoundError, "a deleted response is not found");
let orphan = null;
try {
  await client.responses.create({ model: "echo", input: "x", previous_response_id: doomed.id });
} catch (e) {
  orphan = e;
}
expect(orphan instanceof NotFoundError && orphan.code === "previous_response_not_found",
  "a continuation of a deleted response is refused as one of an unknown response");

// WebSocket mode: two responses on one connection, the second continuing the first, which was not stored.
const socket = new ResponsesWS(client);
await new Promise((resolve, reject) => {
  socket.socket.once("open", resolve);
  socket.socket.once("error", reject);
});
let waiting = null;
socket.on("event", (event) => {
  if (waiting && event.type === "response.completed") {
    const w = waiting;
    waiting = null;
    w.resolve(event.response);
  }
});
socket.on("error", (error) => {
  if (waiting) {
    const w = waiting;
    waiting = null;
    w.reject(error);
  }
});
function over(body) {
  return new Promise((resolve, reject) => {
    waiting = { resolve, reject };
    socket.send({ type: "response.create", ...body });
  });
}
const wsFirst = await over({ model: "echo", input: "over the socket", store: false });
const wsSecond = await over({ model: "echo", input: "continued", previous_response_id: wsFirst.id, store: false });
expect(wsSecond.previous_response_id === wsFirst.id, "the socket's continuation echoes its previous response");
expect(wsSecond.usage.input_tokens === 3 + 3 + 1, "the previous input and output before the new input, got "
  + JSON.stringify(wsSecond.usage));
let wsError = null;
try {
  await over({ model: "echo", input: "x", previous_response_id: "resp_unknown" });
} catch (e) {
  wsError = e;
}
expect(wsError !== null && wsError.error && wsError.error.status === 404, "an error event for an unknown previous response");
socket.close();

console.log(JSON.stringify({
  ok: true,
  first: first.id,
  continued: second.output_text,
  streamed_events: types.length,
  stream_types: [...new Set(types)],
  tool_call: call.name,
  tool_answer: answered.output_text,
  not_found: notFound.code,
  compacted: fresh.output_text,
  compacted_chain: compactedChain.object,
  deleted: gone.status,
  input_items: listed.length,
  socket: wsFirst.output[0].content[0].text,
  socket_error: wsError.error.error.code,
}));
