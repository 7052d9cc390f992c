package dev.switchboard.core.it;

import dev.switchboard.core.clock.InstanceClock;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** In-container test helper: moves idempotency records and ingress events back in time, as if they were old. */
@Stateless
public class IngressProbe {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    InstanceClock clock;

    /** Makes every idempotency record of {@code userKey} {@code ageMillis} old; returns how many. */
    public int age(String userKey, long ageMillis) {
        return em.createNativeQuery("UPDATE message_ingest SET created_at = ? WHERE user_key = ?")
                .setParameter(1, clock.millis() - ageMillis)
                .setParameter(2, userKey)
                .executeUpdate();
    }

    /** Makes every ingress event of {@code userKey} {@code ageMillis} old; returns how many. */
    public int ageEvents(String userKey, long ageMillis) {
        return em.createNativeQuery("UPDATE ingress_events SET received_at = ? WHERE user_key = ?")
                .setParameter(1, clock.millis() - ageMillis)
                .setParameter(2, userKey)
                .executeUpdate();
    }

    /** How many rows of {@code table} (events, decisions or actions) belong to the user's events. */
    public long records(String userKey, String table) {
        String sql = switch (table) {
            case "events" -> "SELECT count(*) FROM ingress_events e WHERE e.user_key = ?";
            case "decisions" -> "SELECT count(*) FROM ingress_decisions d JOIN ingress_events e ON e.event_id = d.event_id"
                    + " WHERE e.user_key = ?";
            case "actions" -> "SELECT count(*) FROM ingress_actions a JOIN ingress_events e ON e.event_id = a.event_id"
                    + " WHERE e.user_key = ?";
            default -> throw new IllegalArgumentException(table);
        };
        return ((Number) em.createNativeQuery(sql).setParameter(1, userKey).getSingleResult()).longValue();
    }

    /** The run an event was handed off to, or null. */
    public String runOf(String eventId) {
        return (String) em.createNativeQuery("SELECT run_id FROM ingress_events WHERE event_id = ?")
                .setParameter(1, eventId)
                .getSingleResult();
    }
}
