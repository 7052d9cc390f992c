package dev.switchboard.core.conversation;

import java.time.Duration;
import java.time.Instant;

/**
 * A thread waiting for a credential (spec §9): the next message within {@link #TTL} is the token
 * for {@code extensionName}, never a turn. Expired strictly after the TTL.
 */
public record PendingAuth(String extensionName, Instant createdAt) {

    public static final Duration TTL = Duration.ofSeconds(300);

    public boolean isExpired(Instant now) {
        return Duration.between(createdAt, now).compareTo(TTL) > 0;
    }
}
