package dev.switchboard.persistence.run;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One run (turn) of a thread, as the users' design maps the {@code runs} table: the lane's store
 * reads and writes its rows in plain statements, each write naming the state it expects
 * ({@link RunState}); the attempt number doubles as the fencing token of the lane lease that executes it.
 */
@Entity
@Table(name = "runs")
public class RunRecord {

    @Id
    @Column(name = "run_id")
    private String runId;

    @Column(name = "thread_id", nullable = false, updatable = false)
    private long threadId;

    @Column(name = "thread_seq", nullable = false, updatable = false)
    private long threadSeq;

    @Column(name = "user_key", nullable = false, updatable = false)
    private String userKey;

    @Column(name = "thread_key", nullable = false, updatable = false)
    private String threadKey;

    @Column(name = "source", nullable = false, updatable = false)
    private String source;

    @Convert(converter = RunKindConverter.class)
    @Column(name = "kind", nullable = false, updatable = false)
    private RunKind kind;

    @Column(name = "external_user_key", updatable = false)
    private String externalUserKey;

    @Column(name = "delivery_mode", nullable = false, updatable = false)
    private String deliveryMode;

    @Convert(converter = RunStateConverter.class)
    @Column(name = "state", nullable = false)
    private RunState state;

    @Column(name = "input_text", nullable = false, updatable = false)
    private String inputText;

    @Column(name = "input_json", updatable = false)
    private String inputJson;

    @Column(name = "turn_id", updatable = false)
    private String turnId;

    @Column(name = "output_json")
    private String outputJson;

    @Column(name = "error_message")
    private String errorMessage;

    @Column(name = "error_code")
    private String errorCode;

    @Column(name = "attempt", nullable = false)
    private int attempt;

    /** Attempts whose lease expired while executing (crashes); hand-backs do not count. */
    @Column(name = "crashes", nullable = false)
    private int crashes;

    @Column(name = "claimed_by")
    private String claimedBy;

    @Column(name = "payload_hash", nullable = false, updatable = false)
    private String payloadHash;

    @Column(name = "created_at", nullable = false, updatable = false)
    private long createdAt;

    @Column(name = "started_at")
    private Long startedAt;

    @Column(name = "finished_at")
    private Long finishedAt;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected RunRecord() {
    }

    public String getRunId() {
        return runId;
    }

    public long getThreadId() {
        return threadId;
    }

    public long getThreadSeq() {
        return threadSeq;
    }

    public String getUserKey() {
        return userKey;
    }

    public String getThreadKey() {
        return threadKey;
    }

    public String getSource() {
        return source;
    }

    public RunKind getKind() {
        return kind;
    }

    public String getExternalUserKey() {
        return externalUserKey;
    }

    public String getDeliveryMode() {
        return deliveryMode;
    }

    public RunState getState() {
        return state;
    }

    public String getInputText() {
        return inputText;
    }

    public String getInputJson() {
        return inputJson;
    }

    public String getTurnId() {
        return turnId;
    }

    public String getOutputJson() {
        return outputJson;
    }

    public String getErrorCode() {
        return errorCode;
    }

    public String getErrorMessage() {
        return errorMessage;
    }

    public int getAttempt() {
        return attempt;
    }

    public int getCrashes() {
        return crashes;
    }

    public String getClaimedBy() {
        return claimedBy;
    }

    public String getPayloadHash() {
        return payloadHash;
    }

    public long getCreatedAt() {
        return createdAt;
    }

    public Long getStartedAt() {
        return startedAt;
    }

    public Long getFinishedAt() {
        return finishedAt;
    }

    public long getUpdatedAt() {
        return updatedAt;
    }
}
