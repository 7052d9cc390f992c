package dev.switchboard.persistence.runtime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A user's serve runtime (Holon's runtime state): pause state and current session (counters come from the events journal). */
@Entity
@Table(name = "serve_runtime")
public class RuntimeRecord {

    @Id
    @Column(name = "user_key")
    private String userKey;

    @Column(name = "paused", nullable = false)
    private boolean paused;

    @Column(name = "session_id", nullable = false)
    private String sessionId;

    @Column(name = "paused_at")
    private Long pausedAt;

    @Column(name = "resumed_at")
    private Long resumedAt;

    protected RuntimeRecord() {
    }

    public RuntimeRecord(String userKey, String sessionId) {
        this.userKey = userKey;
        this.sessionId = sessionId;
    }

    /** False when already paused. */
    public boolean pause(long now) {
        if (paused) {
            return false;
        }
        paused = true;
        pausedAt = now;
        return true;
    }

    /** False when not paused. */
    public boolean resume(long now) {
        if (!paused) {
            return false;
        }
        paused = false;
        resumedAt = now;
        return true;
    }

    public void useSession(String sessionId) {
        this.sessionId = sessionId;
    }

    public String getUserKey() {
        return userKey;
    }

    public boolean isPaused() {
        return paused;
    }

    public String getSessionId() {
        return sessionId;
    }

    public Long getPausedAt() {
        return pausedAt;
    }

    public Long getResumedAt() {
        return resumedAt;
    }
}
