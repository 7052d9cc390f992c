/**
 * The chat gateway over HTTP ({@code /v1/chat}): people's messages from any channel, their
 * threads and histories. The rules and transactions are {@link dev.switchboard.core.chat}'s.
 */
package dev.switchboard.rest.chat;
