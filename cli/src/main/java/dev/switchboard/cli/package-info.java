/**
 * The {@code switchboard} command-line client: every command is one or two calls of the documented
 * API (REST, JSON-RPC over {@code POST /rpc}, the {@code /ws} notification stream), printed for a
 * person (short text lines, a progress line on a terminal) or for a script ({@code --json}).
 * Errors print the server's own message on stderr and exit 1.
 *
 * <p>The jagc client's commands ({@code health}, {@code message}, {@code run wait},
 * {@code auth providers}, {@code --api-url}, {@code JAGC_API_URL}) keep its options, defaults and
 * output, so scripts written for it work unchanged.
 */
package dev.switchboard.cli;
