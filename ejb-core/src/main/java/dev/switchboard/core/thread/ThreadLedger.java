package dev.switchboard.core.thread;

import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Optional;

/** Thread rows by (user, key): found, or created in a transaction of their own. */
@Stateless
public class ThreadLedger {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** The thread's id, creating the thread in its own transaction when it is new. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public long ensure(String userKey, String threadKey, long now) {
        Optional<ThreadRecord> found = find(userKey, threadKey);
        if (found.isPresent()) {
            return found.get().getId();
        }
        ThreadRecord created = new ThreadRecord(userKey, threadKey, now);
        em.persist(created);
        em.flush();
        return created.getId();
    }

    public Optional<ThreadRecord> find(String userKey, String threadKey) {
        return em.createNamedQuery(ThreadRecord.BY_KEY, ThreadRecord.class)
                .setParameter("userKey", userKey)
                .setParameter("threadKey", threadKey)
                .getResultStream().findFirst();
    }
}
