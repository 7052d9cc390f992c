package dev.switchboard.persistence.notify;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A committed notification waiting for its seq. Inserted by a plain insert in the transaction of
 * the change it reports (the identity column orders rows by insertion); the sequencer reads,
 * moves and deletes it.
 */
@Entity
@Table(name = "notification_outbox")
@NamedQuery(name = OutboxRecord.PENDING, query = "SELECT o FROM OutboxRecord o ORDER BY o.id")
public class OutboxRecord {

    public static final String PENDING = "OutboxRecord.pending";

    @Id
    @Column(name = "id", updatable = false)
    private Long id;

    @Column(name = "user_key", updatable = false)
    private String userKey;

    @Column(name = "thread_key", updatable = false)
    private String threadKey;

    @Column(name = "method", updatable = false)
    private String method;

    @Column(name = "params", updatable = false)
    private String params;

    @Column(name = "created_at", updatable = false)
    private long createdAt;

    protected OutboxRecord() {
    }

    /** The log entry this notification becomes under {@code seq}. */
    public NotificationRecord sequenced(long seq) {
        return new NotificationRecord(seq, userKey, threadKey, method, params, createdAt);
    }

    public Long getId() {
        return id;
    }
}
