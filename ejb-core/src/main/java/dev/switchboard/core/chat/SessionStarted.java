package dev.switchboard.core.chat;

import java.util.UUID;

/**
 * A user's chat session was created (spec §2.1 {@code SessionStart}): fired asynchronously once,
 * by the call that created it, after its commit. Observers cannot affect the caller (fail-open).
 */
public record SessionStarted(String userKey, UUID sessionId, long at) {
}
