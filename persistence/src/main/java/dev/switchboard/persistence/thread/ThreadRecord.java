package dev.switchboard.persistence.thread;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

@Entity
@Table(name = "threads")
@NamedQuery(name = ThreadRecord.BY_KEY,
        query = "SELECT t FROM ThreadRecord t WHERE t.userKey = :userKey AND t.threadKey = :threadKey")
public class ThreadRecord {

    public static final String BY_KEY = "ThreadRecord.byKey";

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

    /** Left out of a list of threads unless asked for (V27): decided once, when the thread is created. */
    @Column(name = "is_internal", nullable = false, updatable = false)
    private boolean internal;

    /**
     * The engine its runs take, when the thread was made with one (a delegated call's lane: its
     * agent's); null: the instance's. Changed later only by the runtime store's statements.
     */
    @Column(name = "engine", updatable = false)
    private String engine;

    protected ThreadRecord() {
    }

    public ThreadRecord(String userKey, String threadKey, long createdAt, boolean internal) {
        this(userKey, threadKey, createdAt, internal, null);
    }

    public ThreadRecord(String userKey, String threadKey, long createdAt, boolean internal, String engine) {
        this.userKey = userKey;
        this.threadKey = threadKey;
        this.createdAt = createdAt;
        this.internal = internal;
        this.engine = engine;
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

    public boolean isInternal() {
        return internal;
    }
}
