package dev.switchboard.core.runtime;

import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.runtime.RuntimeRecord;
import dev.switchboard.persistence.ingress.IngressEventRecord;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;

/** The runtime calls' transactions ({@code server/*}, {@code thread/start}). */
@Store({"serve_runtime", "ingress_events"})
@Stateless
public class RuntimeLedger {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    ServeRuntime runtime;

    public RuntimeStatus status(String userKey) {
        RuntimeRecord r = runtime.read(userKey);
        Object[] processed = em.createNamedQuery(IngressEventRecord.PROCESSED, Object[].class)
                .setParameter("userKey", userKey)
                .getSingleResult();
        long count = processed[0] == null ? 0 : ((Number) processed[0]).longValue();
        Long last = processed[1] == null ? null : ((Number) processed[1]).longValue();
        return new RuntimeStatus(r.isPaused(), count, last, r.getSessionId(), r.getPausedAt(), r.getResumedAt());
    }

    public boolean pause(String userKey) {
        return runtime.pause(userKey);
    }

    public boolean resume(String userKey) {
        return runtime.resume(userKey);
    }

    public Instant startThread(String userKey, String threadKey) {
        return runtime.startThread(userKey, threadKey);
    }
}
