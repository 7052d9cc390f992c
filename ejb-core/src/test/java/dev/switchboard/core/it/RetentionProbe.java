package dev.switchboard.core.it;

import dev.switchboard.core.clock.InstanceClock;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** In-container test helper: makes a user's runs and items old, and counts what retention leaves of them. */
@Stateless
public class RetentionProbe {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    InstanceClock clock;

    /** Moves the user's runs on thread {@code threadKey} {@code ageMillis} back in time; returns how many. */
    public int ageRuns(String userKey, String threadKey, long ageMillis) {
        return em.createNativeQuery("UPDATE runs SET created_at = created_at - ?, finished_at = finished_at - ?"
                + " WHERE user_key = ? AND thread_key = ?")
                .setParameter(1, ageMillis)
                .setParameter(2, ageMillis)
                .setParameter(3, userKey)
                .setParameter(4, threadKey)
                .executeUpdate();
    }

    /** Moves the thread's items {@code ageMillis} back in time; returns how many. */
    public int ageItems(String userKey, String threadKey, long ageMillis) {
        return em.createNativeQuery("UPDATE thread_items SET created_at = created_at - ? WHERE thread_id ="
                + " (SELECT id FROM threads WHERE user_key = ? AND thread_key = ?)")
                .setParameter(1, ageMillis)
                .setParameter(2, userKey)
                .setParameter(3, threadKey)
                .executeUpdate();
    }

    /** How many rows of {@code table} belong to the user's thread {@code threadKey}. */
    public long count(String table, String userKey, String threadKey) {
        String sql = switch (table) {
            case "runs", "turns" -> "SELECT count(*) FROM " + table + " WHERE user_key = ? AND thread_key = ?";
            case "message_ingest" -> "SELECT count(*) FROM message_ingest k JOIN runs r ON r.run_id = k.run_id"
                    + " WHERE r.user_key = ? AND r.thread_key = ?";
            case "thread_items" -> "SELECT count(*) FROM thread_items WHERE thread_id ="
                    + " (SELECT id FROM threads WHERE user_key = ? AND thread_key = ?)";
            default -> throw new IllegalArgumentException(table);
        };
        return ((Number) em.createNativeQuery(sql).setParameter(1, userKey).setParameter(2, threadKey)
                .getSingleResult()).longValue();
    }

    /** Moves the thread's creation {@code ageMillis} back in time; returns its id. */
    public long ageThread(String userKey, String threadKey, long ageMillis) {
        em.createNativeQuery("UPDATE threads SET created_at = created_at - ? WHERE user_key = ? AND thread_key = ?")
                .setParameter(1, ageMillis).setParameter(2, userKey).setParameter(3, threadKey).executeUpdate();
        return ((Number) em.createNativeQuery("SELECT id FROM threads WHERE user_key = ? AND thread_key = ?")
                .setParameter(1, userKey).setParameter(2, threadKey).getSingleResult()).longValue();
    }

    /** The thread's workspace head ({@code ""} at its start; null without a workspace). */
    public String workspaceHead(long threadId) {
        return (String) em.createNativeQuery("SELECT workspace_head FROM threads WHERE id = ?")
                .setParameter(1, threadId).getSingleResult();
    }

    /** How many idempotency keys the user has. */
    public long keys(String userKey) {
        return ((Number) em.createNativeQuery("SELECT count(*) FROM message_ingest WHERE user_key = ?")
                .setParameter(1, userKey).getSingleResult()).longValue();
    }

    public long now() {
        return clock.millis();
    }
}
