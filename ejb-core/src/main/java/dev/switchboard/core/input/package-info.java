/**
 * What a client sends, read strictly before anything else looks at it: JSON that is one well-formed
 * value in valid UTF-8 with bounded nesting and number sizes, and text PostgreSQL can store. Every
 * door (REST, JSON-RPC, WebSocket, ingress) uses these rules, so hostile input is refused with the
 * door's own error code before it reaches a statement. And the one refusal that is not about the
 * input but about now ({@link dev.switchboard.core.input.ServerBusy}): no room for the request on
 * this instance, retry shortly.
 */
package dev.switchboard.core.input;
