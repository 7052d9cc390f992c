package dev.switchboard.core.idempotency;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.run.IngestRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.Optional;

/**
 * The idempotency rule, for every door that creates runs (jagc messages, RPC turns, ingress
 * deliveries), in the caller's transaction. A key is scoped by user and source. Its first use
 * stores a run and {@linkplain #remember remembers} the key with the payload's fingerprint; a
 * later use with the same fingerprint is answered with that run ({@link #replayOf}), one with
 * another fingerprint is refused ({@link IdempotencyConflictException}). Callers lock the thread
 * row first, so uses of one key on one thread wait for each other; two first uses racing on
 * different threads meet at the primary key, and the loser's transaction, run again
 * ({@link UniqueViolation#retryOnce}), finds the winner's record.
 */
@Store("message_ingest")
@ApplicationScoped
public class IdempotencyKeys {

    private static final String FORGET_SOURCES = "DELETE FROM message_ingest WHERE source LIKE ? AND created_at < ?";

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    Statements statements;

    public IdempotencyKeys() {
    }

    /**
     * Built outside the container (the in-process tests) with its statements alone: its entity reads
     * and writes ({@link #replayOf}, {@link #seen}, {@link #remember}) need the
     * container's persistence context.
     */
    public IdempotencyKeys(Statements statements) {
        this.statements = statements;
    }

    /**
     * The run an earlier use of {@code key} stored; empty when {@code key} is null or unused.
     *
     * @throws IdempotencyConflictException when the earlier use had another payload
     */
    public Optional<String> replayOf(String userKey, String source, String key, String fingerprint) {
        IngestRecord earlier = find(userKey, source, key);
        if (earlier == null) {
            return Optional.empty();
        }
        if (!earlier.getPayloadHash().equals(fingerprint)) {
            throw new IdempotencyConflictException(earlier.getRunId());
        }
        return Optional.of(earlier.getRunId());
    }

    /** The run an earlier use of {@code key} stored, whatever its payload (a resent delivery); empty when none. */
    public Optional<String> seen(String userKey, String source, String key) {
        return Optional.ofNullable(find(userKey, source, key)).map(IngestRecord::getRunId);
    }

    /**
     * Remembers {@code key} (if not null) for the run this transaction stored (in plain JDBC, on the
     * same connection: its row is there already). Written now, not at commit: a first use of the
     * key racing on another thread fails here, inside the caller's transaction, which
     * {@link UniqueViolation#retryOnce} runs again to find the other's run.
     */
    public void remember(String userKey, String source, String key, String runId, String fingerprint, long now) {
        if (key == null) {
            return;
        }
        em.persist(new IngestRecord(new IngestRecord.Key(userKey, source, key), runId, fingerprint, now));
        em.flush();
    }

    /** Forgets the keys of sources starting with {@code sourcePrefix} remembered before {@code before} (epoch ms). */
    public int forget(String sourcePrefix, long before) {
        return statements.update(FORGET_SOURCES, s -> {
            s.setString(1, sourcePrefix + "%"); // a fixed prefix without wildcards
            s.setLong(2, before);
        }, "forgetting the keys of " + sourcePrefix + "*");
    }

    private IngestRecord find(String userKey, String source, String key) {
        return key == null ? null : em.find(IngestRecord.class, new IngestRecord.Key(userKey, source, key));
    }

    /** Retention: forgets the keys of these runs (deleted with them, in the caller's transaction). */
    public int forgetRuns(List<String> runIds) {
        return statements.updateIn("DELETE FROM message_ingest WHERE run_id IN (%s)", runIds, "forgetting aged runs' keys");
    }
}
