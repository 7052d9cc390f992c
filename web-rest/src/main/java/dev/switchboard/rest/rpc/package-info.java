/** The control plane over HTTP: {@code POST /rpc} (JSON-RPC) and {@code GET /rpc/stream} (NDJSON). */
package dev.switchboard.rest.rpc;
