package dev.switchboard.core.it;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** In-container test helper: moves idempotency records back in time, as if they were old. */
@Stateless
public class IngressProbe {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** Makes every idempotency record of {@code userKey} {@code ageMillis} old; returns how many. */
    public int age(String userKey, long ageMillis) {
        return em.createNativeQuery("UPDATE message_ingest SET created_at = ? WHERE user_key = ?")
                .setParameter(1, System.currentTimeMillis() - ageMillis)
                .setParameter(2, userKey)
                .executeUpdate();
    }
}
