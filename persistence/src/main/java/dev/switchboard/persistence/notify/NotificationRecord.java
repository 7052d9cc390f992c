package dev.switchboard.persistence.notify;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** A sequenced notification in the log; written once by the sequencer (in plain SQL), never changed. */
@Entity
@Table(name = "notifications")
@NamedQuery(name = NotificationRecord.AFTER,
        query = "SELECT n FROM NotificationRecord n WHERE n.seq > :after AND n.seq <= :upTo ORDER BY n.seq")
@NamedQuery(name = NotificationRecord.AFTER_FOR_USER,
        query = "SELECT n FROM NotificationRecord n WHERE n.userKey = :userKey AND n.seq > :after AND n.seq <= :upTo ORDER BY n.seq")
public class NotificationRecord {

    public static final String AFTER = "NotificationRecord.after";
    public static final String AFTER_FOR_USER = "NotificationRecord.afterForUser";

    @Id
    @Column(name = "seq", updatable = false)
    private long seq;

    @Column(name = "user_key", nullable = false, updatable = false)
    private String userKey;

    @Column(name = "thread_key", updatable = false)
    private String threadKey;

    @Column(name = "method", nullable = false, updatable = false)
    private String method;

    @Column(name = "params", nullable = false, updatable = false)
    private String params;

    @Column(name = "created_at", nullable = false, updatable = false)
    private long createdAt;

    protected NotificationRecord() {
    }

    public long getSeq() {
        return seq;
    }

    public String getUserKey() {
        return userKey;
    }

    public String getThreadKey() {
        return threadKey;
    }

    public String getMethod() {
        return method;
    }

    public String getParams() {
        return params;
    }

    public long getCreatedAt() {
        return createdAt;
    }
}
