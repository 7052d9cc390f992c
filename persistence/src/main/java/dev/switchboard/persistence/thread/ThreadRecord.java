package dev.switchboard.persistence.thread;

import jakarta.persistence.Column;
import jakarta.persistence.ColumnResult;
import jakarta.persistence.EntityResult;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedNativeQuery;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.SqlResultSetMapping;
import jakarta.persistence.Table;

@Entity
@Table(name = "threads")
@NamedQuery(name = ThreadRecord.BY_KEY,
        query = "SELECT t FROM ThreadRecord t WHERE t.userKey = :userKey AND t.threadKey = :threadKey")
/* A thread row with the database's clock beside it: the lane lock (core's ThreadRepository). Named,
   with its hint in the definition, so that EclipseLink prepares it once, not on every lock; a copy
   read earlier in the transaction is not the locked row, hence the refresh. */
@SqlResultSetMapping(name = ThreadRecord.WITH_DB_NOW,
        entities = @EntityResult(entityClass = ThreadRecord.class),
        columns = @ColumnResult(name = "db_now", type = Long.class))
@NamedNativeQuery(name = ThreadRecord.LOCK, resultSetMapping = ThreadRecord.WITH_DB_NOW,
        hints = @QueryHint(name = "eclipselink.refresh", value = "true"),
        query = "SELECT t.*, " + DatabaseClock.NOW_MS + " AS db_now FROM threads t WHERE t.id = ? FOR UPDATE")
public class ThreadRecord {

    public static final String BY_KEY = "ThreadRecord.byKey";
    public static final String WITH_DB_NOW = "ThreadRecord.withDbNow";
    /** Locks thread {@code ?1} for the transaction: the thread and the database's time, epoch ms. */
    public static final String LOCK = "ThreadRecord.lock";

    @Id
    @SequenceGenerator(name = "threadIdSeq", sequenceName = "thread_id_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "threadIdSeq")
    private Long id;

    @Column(name = "user_key", nullable = false, updatable = false)
    private String userKey;

    @Column(name = "thread_key", nullable = false, updatable = false)
    private String threadKey;

    @Column(name = "next_seq", nullable = false)
    private long nextSeq;

    @Column(name = "lease_owner")
    private String leaseOwner;

    @Column(name = "lease_until")
    private Long leaseUntil;

    @Column(name = "lease_run_id")
    private String leaseRunId;

    /** The attempt of {@code leaseRunId} the lease was granted to (the fencing token). */
    @Column(name = "lease_attempt")
    private Integer leaseAttempt;

    @Column(name = "created_at", nullable = false, updatable = false)
    private long createdAt;

    protected ThreadRecord() {
    }

    public ThreadRecord(String userKey, String threadKey, long createdAt) {
        this.userKey = userKey;
        this.threadKey = threadKey;
        this.createdAt = createdAt;
        this.nextSeq = 1;
    }

    /** Hands out the next per-thread sequence number; call only while holding the row lock. */
    public long takeNextSeq() {
        return nextSeq++;
    }

    public void releaseLease() {
        this.leaseOwner = null;
        this.leaseUntil = null;
        this.leaseRunId = null;
        this.leaseAttempt = null;
    }

    public Long getId() {
        return id;
    }

    public String getUserKey() {
        return userKey;
    }

    public String getThreadKey() {
        return threadKey;
    }

    public long getNextSeq() {
        return nextSeq;
    }

    public String getLeaseOwner() {
        return leaseOwner;
    }

    public Long getLeaseUntil() {
        return leaseUntil;
    }

    public String getLeaseRunId() {
        return leaseRunId;
    }

    public Integer getLeaseAttempt() {
        return leaseAttempt;
    }

    public long getCreatedAt() {
        return createdAt;
    }
}
