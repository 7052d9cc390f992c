package dev.switchboard.core.thread;

import dev.switchboard.core.idempotency.UniqueViolation;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.Optional;

/** Thread rows by (user, key): found, or created in a transaction of their own (the rows are ThreadRepository's). */
@Stateless
public class ThreadLedger {

    @Inject
    ThreadRepository repository;

    /**
     * The thread's id, creating the thread in its own transaction when it is new; a creation that a
     * concurrent one beat raises {@link UniqueViolation.Lost} (its caller looks again).
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public long ensure(String userKey, String threadKey, long now) {
        Optional<Long> found = find(userKey, threadKey);
        return found.isPresent() ? found.get()
                : UniqueViolation.raisingLost(() -> repository.create(userKey, threadKey, now));
    }

    /** Whose thread {@code id} is, and its key; empty when there is no such thread. */
    public Optional<ThreadRepository.Key> keyOf(long id) {
        return repository.keyOf(id);
    }

    public Optional<Long> find(String userKey, String threadKey) {
        return repository.idOf(userKey, threadKey);
    }
}
