package dev.switchboard.core.chat;

import java.util.UUID;

/**
 * What the gateway did with a message.
 *
 * @param threadId the thread it went to
 * @param status {@code started} (a new turn, running or about to), {@code queued} (merged into the
 *               turn that runs when the current one ends), or {@code ok} (a command, answered by {@code message})
 * @param message the answer to a command, or the spec's note on a queued message; null for a started turn
 * @param turnId the turn the message is part of (null for a command)
 * @param runId that turn's run (null for a command)
 */
public record ChatReply(UUID threadId, String status, String message, String turnId, String runId) {

    public static final String STARTED = "started";
    public static final String QUEUED = "queued";
    public static final String OK = "ok";

    /** Spec §7.1's answer to a message that waits. */
    public static final String QUEUED_MESSAGE = "Message queued — will be processed after the current turn.";
}
