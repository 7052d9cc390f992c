package dev.switchboard.persistence.ingress;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** What followed a forwarded event (Holon's actions journal): {@code accepted} into a run. */
@Entity
@Table(name = "ingress_actions")
public class ActionRecord {

    @Id
    @Column(name = "action_id")
    private String actionId;

    @Column(name = "user_key", nullable = false, updatable = false)
    private String userKey;

    @Column(name = "event_id", nullable = false, updatable = false)
    private String eventId;

    @Column(name = "status", nullable = false)
    private String status;

    @Column(name = "message")
    private String message;

    @Column(name = "run_id", updatable = false)
    private String runId;

    @Column(name = "started_at", nullable = false, updatable = false)
    private long startedAt;

    @Column(name = "ended_at")
    private Long endedAt;

    protected ActionRecord() {
    }

    public ActionRecord(String actionId, String userKey, String eventId, String status, String runId, long startedAt) {
        this.actionId = actionId;
        this.userKey = userKey;
        this.eventId = eventId;
        this.status = status;
        this.runId = runId;
        this.startedAt = startedAt;
    }

    /** The final outcome of the run the event was handed off to (H9: a second action, after {@code accepted}). */
    public static ActionRecord finished(String actionId, String userKey, String eventId, String status, String message, String runId,
            long startedAt, long endedAt) {
        ActionRecord action = new ActionRecord(actionId, userKey, eventId, status, runId, startedAt);
        action.message = message;
        action.endedAt = endedAt;
        return action;
    }

    public String getStatus() {
        return status;
    }

    public String getActionId() {
        return actionId;
    }

    public String getEventId() {
        return eventId;
    }

    public String getMessage() {
        return message;
    }

    public String getRunId() {
        return runId;
    }

    public long getStartedAt() {
        return startedAt;
    }

    public Long getEndedAt() {
        return endedAt;
    }
}
