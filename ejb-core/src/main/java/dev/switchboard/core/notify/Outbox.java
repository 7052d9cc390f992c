package dev.switchboard.core.notify;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Writes notifications in the caller's transaction (the transactional outbox): they commit or
 * roll back with the state change they report. After a commit the pump is woken to sequence and
 * deliver them. Must be called inside a transaction.
 */
@ApplicationScoped
public class Outbox {

    private static final String INSERT = "INSERT INTO notification_outbox (user_key, thread_key, method, params, created_at) "
            + "VALUES (?, ?, ?, ?, ?)";
    private static final Object WAKE_REGISTERED = new Object();

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Inject
    OutboxSignal signal;

    /** Appends one notification; {@code threadKey} is null for notifications about no thread. */
    public void append(String userKey, String threadKey, String method, JsonObject params) {
        // A plain insert: the identity column orders rows by insertion, and no entity is managed.
        em.createNativeQuery(INSERT)
                .setParameter(1, userKey)
                .setParameter(2, threadKey)
                .setParameter(3, method)
                .setParameter(4, params.toString())
                .setParameter(5, System.currentTimeMillis())
                .executeUpdate();
        if (transactions.getResource(WAKE_REGISTERED) == null) {
            transactions.putResource(WAKE_REGISTERED, Boolean.TRUE);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        signal.raise();
                    }
                }
            });
        }
    }
}
