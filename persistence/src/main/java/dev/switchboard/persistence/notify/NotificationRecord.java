package dev.switchboard.persistence.notify;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A notification in the outbox. Written by a plain insert in the transaction of the change it
 * reports (see the service layer's outbox), read and stamped through this entity. {@code seq} is
 * null until the sequencer stamps the committed row.
 */
@Entity
@Table(name = "notifications")
@NamedQuery(name = NotificationRecord.UNSTAMPED,
        query = "SELECT n FROM NotificationRecord n WHERE n.seq IS NULL ORDER BY n.id")
@NamedQuery(name = NotificationRecord.AFTER,
        query = "SELECT n FROM NotificationRecord n WHERE n.seq > :after AND n.seq <= :upTo ORDER BY n.seq")
@NamedQuery(name = NotificationRecord.AFTER_FOR_USER,
        query = "SELECT n FROM NotificationRecord n WHERE n.seq > :after AND n.seq <= :upTo AND n.userKey = :userKey ORDER BY n.seq")
public class NotificationRecord {

    public static final String UNSTAMPED = "NotificationRecord.unstamped";
    public static final String AFTER = "NotificationRecord.after";
    public static final String AFTER_FOR_USER = "NotificationRecord.afterForUser";

    @Id
    @Column(name = "id", updatable = false)
    private Long id;

    @Column(name = "seq")
    private Long seq;

    @Column(name = "user_key", insertable = false, updatable = false)
    private String userKey;

    @Column(name = "thread_key", insertable = false, updatable = false)
    private String threadKey;

    @Column(name = "method", insertable = false, updatable = false)
    private String method;

    @Column(name = "params", insertable = false, updatable = false)
    private String params;

    @Column(name = "created_at", insertable = false, updatable = false)
    private long createdAt;

    protected NotificationRecord() {
    }

    public void stamp(long seq) {
        if (this.seq != null) {
            throw new IllegalStateException("notification " + id + " already has seq " + this.seq);
        }
        this.seq = seq;
    }

    public Long getId() {
        return id;
    }

    public Long getSeq() {
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
