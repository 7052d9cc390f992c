package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.conversation.ThreadResolution.Adopt;
import dev.switchboard.core.conversation.ThreadResolution.CreateFresh;
import dev.switchboard.core.conversation.ThreadResolution.CreateWithId;
import dev.switchboard.core.conversation.ThreadResolution.Mapped;
import dev.switchboard.core.conversation.ThreadResolution.Outcome;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Thread resolution (spec §2.2; upstream session_manager.rs, §14.1), driven through a small
 * in-memory directory that applies each outcome the way the store does.
 */
class ThreadResolutionTest {

    /** Users' sessions and the key map, as the store holds them. */
    private static final class Directory implements ThreadResolution.Lookup {
        final Map<ThreadKey, UUID> map = new HashMap<>();
        final Map<String, Set<UUID>> sessions = new HashMap<>();
        String user;

        UUID resolve(String userId, String channel, Optional<String> ext) {
            user = userId;
            ThreadKey key = new ThreadKey(userId, channel, ext);
            Outcome outcome = ThreadResolution.resolve(key, this);
            UUID id;
            if (outcome instanceof Mapped m) {
                id = m.threadId();
            } else if (outcome instanceof Adopt a) {
                id = a.threadId();
            } else if (outcome instanceof CreateWithId c) {
                id = c.threadId();
            } else {
                id = UUID.randomUUID();
            }
            sessions.computeIfAbsent(userId, u -> new HashSet<>()).add(id);
            map.put(key, id);
            return id;
        }

        @Override
        public Optional<UUID> mapped(ThreadKey key) {
            return Optional.ofNullable(map.get(key));
        }

        @Override
        public boolean inSession(UUID threadId) {
            return sessions.getOrDefault(user, Set.of()).contains(threadId);
        }

        @Override
        public boolean claimedElsewhere(UUID threadId) {
            return map.containsValue(threadId) || sessions.entrySet().stream()
                    .anyMatch(e -> !e.getKey().equals(user) && e.getValue().contains(threadId));
        }
    }

    private final Directory d = new Directory();

    @Test
    void theSameKeyFindsTheSameThreadAndEveryOtherKeyAnother() {
        UUID first = d.resolve("u", "cli", Optional.empty());
        assertEquals(first, d.resolve("u", "cli", Optional.empty()));
        assertNotEquals(first, d.resolve("u", "http", Optional.empty()), "another channel");
        assertNotEquals(first, d.resolve("v", "cli", Optional.empty()), "another user");
        UUID ext = d.resolve("u", "cli", Optional.of("ext-1"));
        assertNotEquals(first, ext, "absent and present external ids differ");
        assertNotEquals(ext, d.resolve("u", "cli", Optional.of("")), "and an empty one is a third key");
        assertEquals(ext, d.resolve("u", "cli", Optional.of("ext-1")));
        assertNotEquals(ext, d.resolve("u", "cli", Optional.of("ext-2")));
        assertEquals(5, d.sessions.get("u").size());
    }

    @Test
    void aStaleMappingMakesANewThread() {
        UUID gone = d.resolve("u", "cli", Optional.of("ext"));
        d.sessions.get("u").remove(gone);
        UUID fresh = d.resolve("u", "cli", Optional.of("ext"));
        assertNotEquals(gone, fresh);
        assertTrue(d.sessions.get("u").contains(fresh));
    }

    @Test
    void aUuidNobodyHasBecomesTheThreadsId() {
        UUID wanted = UUID.randomUUID();
        assertEquals(wanted, d.resolve("u", "responses", Optional.of(wanted.toString())));
    }

    @Test
    void anUnmappedThreadOfTheSessionIsAdoptedByItsUuid() {
        UUID existing = UUID.randomUUID();
        d.sessions.computeIfAbsent("u", x -> new HashSet<>()).add(existing);
        assertEquals(new Adopt(existing), ThreadResolution.resolve(new ThreadKey("u", "web", Optional.of(existing.toString())),
                lookupFor("u")));
        assertEquals(existing, d.resolve("u", "web", Optional.of(existing.toString())));
        assertEquals(1, d.sessions.get("u").size(), "no duplicate");
    }

    @Test
    void aUuidMappedUnderAnotherChannelOrOwnedByAnotherUserIsNeverAliased() {
        UUID telegram = d.resolve("u", "telegram", Optional.of(UUID.randomUUID().toString()));
        UUID viaHttp = d.resolve("u", "http", Optional.of(telegram.toString()));
        assertNotEquals(telegram, viaHttp, "mapped under another channel: a fresh thread");
        UUID hers = UUID.randomUUID();
        d.sessions.computeIfAbsent("alice", x -> new HashSet<>()).add(hers);
        assertNotEquals(hers, d.resolve("mallory", "web", Optional.of(hers.toString())),
                "another user's thread is out of reach");
    }

    @Test
    void noThreadIsMintedFromAnEmptyExternalId() {
        assertEquals(new CreateFresh(), ThreadResolution.resolve(new ThreadKey("u", "web", Optional.of("")), lookupFor("u")));
        assertEquals(new CreateFresh(), ThreadResolution.resolve(new ThreadKey("u", "web", Optional.empty()), lookupFor("u")));
        assertEquals(new CreateFresh(), ThreadResolution.resolve(new ThreadKey("u", "web", Optional.of("not-a-uuid")),
                lookupFor("u")));
    }

    private ThreadResolution.Lookup lookupFor(String user) {
        d.user = user;
        return d;
    }
}
