/**
 * The WebSocket edge at {@code /ws}: JSON-RPC both ways. Clients send the control plane's
 * requests and {@code subscribe}/{@code unsubscribe}; the server sends responses and the
 * notifications of the subscription, resumable by seq. {@link dev.switchboard.ws.SocketGate}
 * authenticates and checks the origin before the upgrade.
 */
package dev.switchboard.ws;
