/**
 * JSON-RPC 2.0 for the control plane: envelope rules ({@link dev.switchboard.core.rpc.RpcEnvelope}),
 * params decoding and the methods ({@link dev.switchboard.core.rpc.RpcMethods}, which routes each to
 * {@link dev.switchboard.core.rpc.ServerMethods}, {@link dev.switchboard.core.rpc.ThreadMethods} or
 * {@link dev.switchboard.core.rpc.ChatMethods} and maps their refusals to errors), shared by the HTTP
 * and WebSocket transports.
 */
package dev.switchboard.core.rpc;
