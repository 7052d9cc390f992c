package dev.switchboard.core.thread;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.idempotency.UniqueViolation;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Resolves (user, thread key) to the thread's row id, creating the thread on first use. Thread rows
 * are never deleted, so ids are cached for the life of the application; the cache is bounded by
 * clearing it when full.
 */
@ApplicationScoped
public class ThreadDirectory {

    private static final int CACHE_LIMIT = 100_000;

    @EJB
    ThreadLedger ledger;

    @Inject
    InstanceClock clock;

    private final ConcurrentMap<String, Long> ids = new ConcurrentHashMap<>();

    /** The thread's id, creating the thread (in its own transaction) when it is new. */
    public long idOf(String userKey, String threadKey) {
        String cacheKey = userKey + '\u0000' + threadKey;
        Long cached = ids.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        long id;
        try {
            id = ledger.ensure(userKey, threadKey, clock.millis());
        } catch (UniqueViolation.Lost e) {
            id = ledger.ensure(userKey, threadKey, clock.millis()); // created concurrently: now it is found
        }
        if (ids.size() >= CACHE_LIMIT) {
            ids.clear();
        }
        ids.put(cacheKey, id);
        return id;
    }

    /** Whose thread {@code id} is, and its key; empty when there is no such thread. */
    public Optional<ThreadRepository.Key> keyOf(long id) {
        return ledger.keyOf(id);
    }

    /** The thread's id if it exists; never creates one. */
    public Optional<Long> find(String userKey, String threadKey) {
        Long cached = ids.get(userKey + '\u0000' + threadKey);
        return cached != null ? Optional.of(cached) : ledger.find(userKey, threadKey);
    }
}
