package dev.switchboard.persistence.ingress;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/** A received ingress event (Holon's events journal), with the lane it routed to and its run. */
@Entity
@Table(name = "ingress_events")
@NamedQuery(name = IngressEventRecord.ACCEPTED_FOR_RUN,
        query = "SELECT e FROM IngressEventRecord e WHERE e.runId = :runId AND e.status = 'accepted'")
@NamedQuery(name = IngressEventRecord.DEFERRED,
        query = "SELECT e FROM IngressEventRecord e WHERE e.userKey = :userKey AND e.status = 'deferred'"
                + " ORDER BY e.receivedAt, e.eventId")
@NamedQuery(name = IngressEventRecord.DEFERRED_BY_KEY_OR_LANE,
        query = "SELECT e.dedupeKey FROM IngressEventRecord e WHERE e.userKey = :userKey AND e.status = 'deferred'"
                + " AND (e.dedupeKey = :dedupeKey OR e.sessionKey = :sessionKey)")
@NamedQuery(name = IngressEventRecord.DEFERRED_TIMER,
        query = "SELECT e FROM IngressEventRecord e WHERE e.userKey = :userKey AND e.status = 'deferred'"
                + " AND e.source = 'timer' AND e.repo = :repo")
@IdClass(IngressEventRecord.Key.class)
public class IngressEventRecord {

    /** An event's key: ids are each user's own. */
    public static final class Key implements Serializable {

        private static final long serialVersionUID = 1L;

        private String userKey;
        private String eventId;

        public Key() {
        }

        public Key(String userKey, String eventId) {
            this.userKey = userKey;
            this.eventId = eventId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(userKey, k.userKey) && Objects.equals(eventId, k.eventId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(userKey, eventId);
        }
    }

    /** Deletes events received before {@code :before}, except held ones (their decisions and actions first). */

    public static final String ACCEPTED_FOR_RUN = "IngressEventRecord.acceptedForRun";
    public static final String DEFERRED = "IngressEventRecord.deferred";
    public static final String DEFERRED_BY_KEY_OR_LANE = "IngressEventRecord.deferredByKeyOrLane";
    public static final String DEFERRED_TIMER = "IngressEventRecord.deferredTimer";

    @Id
    @Column(name = "user_key", nullable = false, updatable = false)
    private String userKey;

    @Id
    @Column(name = "event_id")
    private String eventId;

    @Column(name = "source", nullable = false, updatable = false)
    private String source;

    @Column(name = "type", nullable = false, updatable = false)
    private String type;

    @Column(name = "repo", updatable = false)
    private String repo;

    @Column(name = "dedupe_key", updatable = false)
    private String dedupeKey;

    @Column(name = "session_key", nullable = false, updatable = false)
    private String sessionKey;

    @Column(name = "status", nullable = false)
    private String status;

    @Column(name = "run_id")
    private String runId;

    @Column(name = "turn_id")
    private String turnId;

    @Column(name = "envelope", nullable = false, updatable = false)
    private String envelope;

    @Column(name = "received_at", nullable = false, updatable = false)
    private long receivedAt;

    protected IngressEventRecord() {
    }

    public IngressEventRecord(String eventId, String userKey, String source, String type, String repo,
            String dedupeKey, String sessionKey, String envelope, long receivedAt) {
        this.eventId = eventId;
        this.userKey = userKey;
        this.source = source;
        this.type = type;
        this.repo = repo;
        this.dedupeKey = dedupeKey;
        this.sessionKey = sessionKey;
        this.envelope = envelope;
        this.receivedAt = receivedAt;
        this.status = EventStatus.ACCEPTED;
    }

    /** The event's outcome: {@code accepted} into run {@code runId}, a {@code duplicate} of it, or {@code deferred}. */
    public void settle(String status, String runId, String turnId) {
        this.status = status;
        this.runId = runId;
        this.turnId = turnId;
    }

    public String getEventId() {
        return eventId;
    }

    public String getStatus() {
        return status;
    }

    public String getRunId() {
        return runId;
    }

    public String getUserKey() {
        return userKey;
    }

    public String getSource() {
        return source;
    }

    public String getType() {
        return type;
    }

    public String getSessionKey() {
        return sessionKey;
    }

    public String getRepo() {
        return repo;
    }

    public String getDedupeKey() {
        return dedupeKey;
    }

    public String getTurnId() {
        return turnId;
    }

    public String getEnvelope() {
        return envelope;
    }

    public long getReceivedAt() {
        return receivedAt;
    }
}
