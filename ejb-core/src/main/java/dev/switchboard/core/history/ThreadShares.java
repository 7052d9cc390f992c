package dev.switchboard.core.history;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * The {@code thread_shares} table in plain JDBC: the read-only links to threads' transcripts, each
 * kept by the SHA-256 of its token ({@link ShareTokens}) with the thread and the newest item it
 * shows. Statements run in the caller's transaction if there is one.
 */
@Store("thread_shares")
@ApplicationScoped
public class ThreadShares {

    private static final String INSERT = "INSERT INTO thread_shares (token_hash, user_key, thread_id, thread_key,"
            + " up_to_seq, created_at) VALUES (?, ?, ?, ?, ?, ?)";
    private static final String FIND = "SELECT user_key, thread_id, thread_key, up_to_seq, created_at FROM thread_shares"
            + " WHERE token_hash = ?";
    private static final String REVOKE = "DELETE FROM thread_shares WHERE thread_id = ?";

    /** A link: whose thread, and up to which item. */
    public record Share(String userKey, long threadId, String threadKey, long upToSeq, long createdAt) {
    }

    @Inject
    Statements statements;

    /** A new link to the thread's items up to {@code upToSeq}; returns its token (the only copy). */
    public String create(String userKey, long threadId, String threadKey, long upToSeq, long now) {
        String token = ShareTokens.fresh();
        statements.updateOne(INSERT, s -> {
            s.setString(1, ShareTokens.hash(token));
            s.setString(2, userKey);
            s.setLong(3, threadId);
            s.setString(4, threadKey);
            s.setLong(5, upToSeq);
            s.setLong(6, now);
        }, "sharing thread " + threadId);
        return token;
    }

    /** The link {@code token} opens; empty for a token never made, revoked or not of the form. */
    public Optional<Share> find(String token) {
        if (!ShareTokens.wellFormed(token)) {
            return Optional.empty();
        }
        return statements.query(FIND, s -> s.setString(1, ShareTokens.hash(token)),
                rs -> new Share(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getLong(5)),
                "reading a transcript link").stream().findFirst();
    }

    /** Revokes every link to the thread; returns how many there were. */
    public int revoke(long threadId) {
        return statements.update(REVOKE, s -> s.setLong(1, threadId), "revoking the links of thread " + threadId);
    }
}
