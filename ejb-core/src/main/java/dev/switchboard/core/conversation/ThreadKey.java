package dev.switchboard.core.conversation;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a message says it belongs (spec §1): the user, the channel it came through and the
 * channel's own thread id. An absent id and an empty one are different keys.
 */
public record ThreadKey(String userId, String channel, Optional<String> externalThreadId) {

    public ThreadKey {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(externalThreadId, "externalThreadId");
    }
}
