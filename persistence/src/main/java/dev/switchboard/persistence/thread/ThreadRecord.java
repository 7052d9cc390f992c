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

    public long getCreatedAt() {
        return createdAt;
    }

    public boolean isInternal() {
        return internal;
    }
}
