/**
 * The wire formats of model servers: a {@link dev.switchboard.core.engine.model.ModelWire} writes
 * one model call (instructions, conversation items, tools) as its API's request and reads the
 * answer — streamed as server-sent events ({@link dev.switchboard.core.engine.model.SseLines}) or
 * whole — into a {@link dev.switchboard.core.engine.model.ModelReply}, passing text deltas on as
 * they arrive. Open Responses ({@code /responses}) and chat completions ({@code /chat/completions})
 * are spoken; the conversation is always held as Open Responses items.
 */
package dev.switchboard.core.engine.model;
