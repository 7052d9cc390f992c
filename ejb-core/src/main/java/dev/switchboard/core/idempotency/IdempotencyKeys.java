package dev.switchboard.core.idempotency;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
    private static final String FIND = "SELECT run_id, payload_hash FROM message_ingest"
            + " WHERE user_key = ? AND source = ? AND idempotency_key = ?";
    private static final String REMEMBER = "INSERT INTO message_ingest (user_key, source, idempotency_key, run_id,"
            + " payload_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)";

    @Inject
    Statements statements;

    /** A key's first use: the run it stored and the fingerprint of its payload. */
    private record FirstUse(String runId, String fingerprint) {
    }

    public IdempotencyKeys() {
    }

    /** Built outside the container (the in-process tests): each call runs in the caller's transaction. */
    public IdempotencyKeys(Statements statements) {
        this.statements = statements;
    }

    /**
     * The run an earlier use of {@code key} stored; empty when {@code key} is null or unused.
     *
     * @throws IdempotencyConflictException when the earlier use had another payload
     */
    public Optional<String> replayOf(String userKey, String source, String key, String fingerprint) {
        FirstUse earlier = find(userKey, source, key);
        if (earlier == null) {
            return Optional.empty();
        }
        if (!earlier.fingerprint().equals(fingerprint)) {
            throw new IdempotencyConflictException(earlier.runId());
        }
        return Optional.of(earlier.runId());
    }

    /** The run an earlier use of {@code key} stored, whatever its payload (a resent delivery); empty when none. */
    public Optional<String> seen(String userKey, String source, String key) {
        return Optional.ofNullable(find(userKey, source, key)).map(FirstUse::runId);
    }

    /**
     * Remembers {@code key} (if not null) for the run this transaction stored (on the same
     * connection: its row is there already). Written now, not at commit: a first use of the
     * key racing on another thread fails here ({@link UniqueViolation.Lost}), inside the caller's
     * transaction, which {@link UniqueViolation#retryOnce} runs again to find the other's run.
     */
    public void remember(String userKey, String source, String key, String runId, String fingerprint, long now) {
        if (key == null) {
            return;
        }
        UniqueViolation.raisingLost(() -> {
            statements.updateOne(REMEMBER, s -> {
                s.setString(1, userKey);
                s.setString(2, source);
                s.setString(3, key);
                s.setString(4, runId);
                s.setString(5, fingerprint);
                s.setLong(6, now);
            }, "remembering an idempotency key of run " + runId);
        });
    }

    /** Forgets the keys of sources starting with {@code sourcePrefix} remembered before {@code before} (epoch ms). */
    public int forget(String sourcePrefix, long before) {
        return statements.update(FORGET_SOURCES, s -> {
            s.setString(1, sourcePrefix + "%"); // a fixed prefix without wildcards
            s.setLong(2, before);
        }, "forgetting the keys of " + sourcePrefix + "*");
    }

    private FirstUse find(String userKey, String source, String key) {
        if (key == null) {
            return null;
        }
        List<FirstUse> found = statements.query(FIND, s -> {
            s.setString(1, userKey);
            s.setString(2, source);
            s.setString(3, key);
        }, rs -> new FirstUse(rs.getString(1), rs.getString(2)), "reading an idempotency key");
        return found.isEmpty() ? null : found.get(0);
    }

    /** Retention: forgets the keys of these runs (deleted with them, in the caller's transaction). */
    public int forgetRuns(List<String> runIds) {
        return statements.updateIn("DELETE FROM message_ingest WHERE run_id IN (%s)", runIds, "forgetting aged runs' keys");
    }
}
