package dev.switchboard.persistence.ingress;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** What was decided for an event (Holon's decisions journal): forwarded, or skipped with a reason. */
@Entity
@Table(name = "ingress_decisions")
public class DecisionRecord {

    @Id
    @Column(name = "decision_id")
    private String decisionId;

    @Column(name = "user_key", nullable = false, updatable = false)
    private String userKey;

    @Column(name = "event_id", nullable = false, updatable = false)
    private String eventId;

    @Column(name = "type", nullable = false, updatable = false)
    private String type;

    @Column(name = "reason", updatable = false)
    private String reason;

    @Column(name = "skipped", nullable = false, updatable = false)
    private boolean skipped;

    @Column(name = "created_at", nullable = false, updatable = false)
    private long createdAt;

    protected DecisionRecord() {
    }

    public DecisionRecord(String decisionId, String userKey, String eventId, String type, String reason, boolean skipped,
            long createdAt) {
        this.decisionId = decisionId;
        this.userKey = userKey;
        this.eventId = eventId;
        this.type = type;
        this.reason = reason;
        this.skipped = skipped;
        this.createdAt = createdAt;
    }

    public boolean isSkipped() {
        return skipped;
    }

    public String getReason() {
        return reason;
    }

    public String getDecisionId() {
        return decisionId;
    }

    public String getEventId() {
        return eventId;
    }

    public String getType() {
        return type;
    }

    public long getCreatedAt() {
        return createdAt;
    }
}
