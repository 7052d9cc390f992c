package dev.switchboard.persistence.runtime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A user's serve runtime (Holon's runtime state): pause state, counters and current session. */
@Entity
@Table(name = "serve_runtime")
public class RuntimeRecord {

    @Id
    @Column(name = "user_key")
    private String userKey;

    @Column(name = "paused", nullable = false)
    private boolean paused;

    @Column(name = "events_processed", nullable = false)
    private long eventsProcessed;

    @Column(name = "last_event_at")
    private Long lastEventAt;

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

    public void recordEvent(long now) {
        eventsProcessed++;
        lastEventAt = now;
    }

    public String getUserKey() {
        return userKey;
    }

    public boolean isPaused() {
        return paused;
    }

    public long getEventsProcessed() {
        return eventsProcessed;
    }

    public Long getLastEventAt() {
        return lastEventAt;
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
