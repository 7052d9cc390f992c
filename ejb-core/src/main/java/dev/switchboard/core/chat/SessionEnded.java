package dev.switchboard.core.chat;

import java.util.List;
import java.util.UUID;

/**
 * A user's chat session was pruned for being idle (spec §2.5 {@code SessionEnd}): fired
 * asynchronously before it is removed, with its threads' ids. Observers cannot affect the pruning
 * (fail-open).
 */
public record SessionEnded(String userKey, UUID sessionId, List<UUID> threadIds, long at) {
}
