package dev.switchboard.core.conversation;

import java.util.Optional;
import java.util.UUID;

/**
 * Which thread a message goes to (spec §2.2), decided from what is stored. In order: the thread
 * its key is mapped to, if the user's session still has it; an unmapped thread of the session
 * whose id the channel's thread id spells (adopted); a new thread with that id, if no key maps to
 * it; otherwise a new thread with a fresh id. A thread id is adopted or minted from the channel's
 * id only when that id is present and not empty (decision I4), and never when another of the
 * user's keys already maps to it, so two channels never alias one thread by accident. Thread ids
 * are per user: what other users have is not looked at, so no user reaches another's thread or
 * learns that an id is taken.
 */
public final class ThreadResolution {

    /** What the stored mappings and the session say. */
    public interface Lookup {

        /** The thread {@code key} is mapped to, if any. */
        Optional<UUID> mapped(ThreadKey key);

        /** Whether the user's session has this thread. */
        boolean inSession(UUID threadId);

        /**
         * Whether this thread id is spoken for elsewhere: some key of the user's, of any channel
         * (this key's own stale entry included), maps to it.
         */
        boolean claimedElsewhere(UUID threadId);
    }

    public sealed interface Outcome {
    }

    /** The key's mapped thread: nothing to write. */
    public record Mapped(UUID threadId) implements Outcome {
    }

    /** An existing thread of the session becomes the key's: map it, leave the active thread alone. */
    public record Adopt(UUID threadId) implements Outcome {
    }

    /** A new thread with this id, made active and mapped to the key. */
    public record CreateWithId(UUID threadId) implements Outcome {
    }

    /** A new thread with a fresh id, made active and mapped to the key. */
    public record CreateFresh() implements Outcome {
    }

    private ThreadResolution() {
    }

    public static Outcome resolve(ThreadKey key, Lookup lookup) {
        Optional<UUID> mapped = lookup.mapped(key);
        if (mapped.isPresent() && lookup.inSession(mapped.get())) {
            return new Mapped(mapped.get());
        }
        Optional<UUID> spelled = key.externalThreadId().filter(id -> !id.isEmpty()).flatMap(Submissions::uuid);
        if (spelled.isEmpty() || lookup.claimedElsewhere(spelled.get())) {
            return new CreateFresh();
        }
        return lookup.inSession(spelled.get()) ? new Adopt(spelled.get()) : new CreateWithId(spelled.get());
    }
}
