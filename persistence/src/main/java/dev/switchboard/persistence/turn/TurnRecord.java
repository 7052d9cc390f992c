package dev.switchboard.persistence.turn;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A turn: one step of a conversation on a thread, carried out by one run or, when steered, by
 * several runs under the same turn id. Active while any of its runs is unfinished; it then ends
 * {@code completed} or {@code interrupted} (with outcome {@code interrupted} or {@code failed}).
 */
@Entity
@Table(name = "turns")
@NamedQuery(name = TurnRecord.ACTIVE_ON_THREAD,
        query = "SELECT t FROM TurnRecord t WHERE t.threadId = :threadId AND t.state = 'active' ORDER BY t.startedAt, t.turnId")
public class TurnRecord {

    public static final String ACTIVE_ON_THREAD = "TurnRecord.activeOnThread";

    public static final String ACTIVE = "active";
    public static final String COMPLETED = "completed";
    public static final String INTERRUPTED = "interrupted";

    @Id
    @Column(name = "turn_id")
    private String turnId;

    @Column(name = "user_key", nullable = false, updatable = false)
    private String userKey;

    @Column(name = "thread_id", nullable = false, updatable = false)
    private long threadId;

    @Column(name = "thread_key", nullable = false, updatable = false)
    private String threadKey;

    @Column(name = "state", nullable = false)
    private String state;

    @Column(name = "outcome")
    private String outcome;

    @Column(name = "message")
    private String message;

    @Column(name = "merged_into")
    private String mergedInto;

    @Column(name = "started_at", nullable = false, updatable = false)
    private long startedAt;

    @Column(name = "ended_at")
    private Long endedAt;

    protected TurnRecord() {
    }

    public TurnRecord(String turnId, String userKey, long threadId, String threadKey, long startedAt) {
        this.turnId = turnId;
        this.userKey = userKey;
        this.threadId = threadId;
        this.threadKey = threadKey;
        this.state = ACTIVE;
        this.startedAt = startedAt;
    }

    public boolean isActive() {
        return ACTIVE.equals(state);
    }

    /** Ends the turn; {@code outcome} is {@code completed}, {@code interrupted} or {@code failed}. */
    public void end(String outcome, String message, long now) {
        if (!isActive()) {
            throw new IllegalStateException("turn " + turnId + " already ended " + state);
        }
        this.state = COMPLETED.equals(outcome) ? COMPLETED : INTERRUPTED;
        this.outcome = outcome;
        this.message = message;
        this.endedAt = now;
    }

    public void mergeInto(String newerTurnId) {
        this.mergedInto = newerTurnId;
    }

    public String getTurnId() {
        return turnId;
    }

    public String getUserKey() {
        return userKey;
    }

    public long getThreadId() {
        return threadId;
    }

    public String getThreadKey() {
        return threadKey;
    }

    public String getState() {
        return state;
    }

    public String getOutcome() {
        return outcome;
    }

    public String getMessage() {
        return message;
    }

    public String getMergedInto() {
        return mergedInto;
    }

    public long getStartedAt() {
        return startedAt;
    }

    public Long getEndedAt() {
        return endedAt;
    }
}
