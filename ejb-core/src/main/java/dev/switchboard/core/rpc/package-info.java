/**
 * JSON-RPC 2.0 for the control plane: envelope rules ({@link dev.switchboard.core.rpc.RpcEnvelope}),
 * params decoding and the methods ({@link dev.switchboard.core.rpc.RpcMethods}), shared by the
 * HTTP and WebSocket transports.
 */
package dev.switchboard.core.rpc;
