/**
 * The WebSocket edge at {@code /ws}. It will speak JSON-RPC both ways (requests, subscriptions
 * and turn-lifecycle notifications); until then the module deploys empty.
 */
package dev.switchboard.ws;
