package dev.switchboard.core.webhook;

import dev.switchboard.core.sql.MultiRowInsert;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.thread.DatabaseClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The {@code webhook_messages}, {@code webhook_attempts} and {@code webhook_fanout} rows: every
 * statement on them. Claims are compare-and-set on {@code due_at}, portable and exact: of two
 * instances that saw a message due, one moves it. When a message is due and how long a claim holds
 * it are times of the database's clock ({@link DatabaseClock}), as the lanes' leases are: an
 * instance whose clock runs ahead must not take a message another is still sending.
 */
@Store({"webhook_attempts", "webhook_fanout", "webhook_messages"})
@ApplicationScoped
public class WebhookMessages {

    private static final String NOW = DatabaseClock.NOW_MS;
    private static final String COLUMNS = "id, msg_id, endpoint_id, lane, event_type, payload, seq, state, attempts,"
            + " due_at, sending_until, created_at, ended_at";
    private static final MultiRowInsert<WebhookMessage> INSERT = new MultiRowInsert<>(
            "INSERT INTO webhook_messages (msg_id, endpoint_id, lane, event_type, payload, seq, state, attempts, due_at,"
                    + " created_at) VALUES ", "(?, ?, ?, ?, ?, ?, ?, ?, " + NOW + ", ?)", // due at once
            (s, i, m) -> {
                s.setString(i, m.msgId());
                s.setString(i + 1, m.endpointId());
                s.setString(i + 2, m.lane());
                s.setString(i + 3, m.eventType());
                s.setString(i + 4, m.payload());
                s.setLong(i + 5, m.seq());
                s.setString(i + 6, m.state());
                s.setInt(i + 7, m.attempts());
                s.setLong(i + 8, m.createdAt());
                return i + 9;
            });
    private static final String LOCK_CURSOR = "SELECT last_seq FROM webhook_fanout WHERE id = 1 FOR UPDATE";
    private static final String MOVE_CURSOR = "UPDATE webhook_fanout SET last_seq = ? WHERE id = 1";
    /**
     * Due messages that are the first unfinished one of their lane: the lanes' heads in one pass
     * over the pending messages (a partial index on PostgreSQL, V25), then those due, less those of
     * the endpoints the caller names ({@link #due}: the disabled ones, which webhook_endpoints' store knows).
     */
    private static final String DUE_HEAD = "SELECT " + prefixed("m") + " FROM webhook_messages m"
            + " JOIN (SELECT MIN(p.id) AS head FROM webhook_messages p WHERE p.state = 'pending'"
            + " GROUP BY p.endpoint_id, p.lane) h ON m.id = h.head"
            + " WHERE m.due_at <= " + NOW;
    private static final String DUE_TAIL = " ORDER BY m.due_at, m.id FETCH FIRST ? ROWS ONLY";
    private static final String LANE_HEAD = "SELECT " + COLUMNS + " FROM webhook_messages WHERE endpoint_id = ? AND lane = ?"
            + " AND state = 'pending' ORDER BY id FETCH FIRST 1 ROWS ONLY";
    private static final String CLAIM = "UPDATE webhook_messages SET due_at = " + NOW + " + ?, sending_until = " + NOW
            + " + ?, attempts = attempts + 1 WHERE id = ? AND state = 'pending' AND due_at = ? AND due_at <= " + NOW;
    private static final String FINISH = "UPDATE webhook_messages SET state = ?, due_at = " + NOW + " + ?, sending_until = NULL,"
            + " ended_at = ? WHERE id = ? AND state = 'pending' AND attempts = ?";
    /* Only while the message is there: an endpoint deleted during the attempt took its log with it. */
    private static final String ATTEMPT = "INSERT INTO webhook_attempts (message_id, endpoint_id, attempt, at, status,"
            + " latency_ms, outcome, response) SELECT ?, ?, ?, ?, ?, ?, ?, ? FROM webhook_messages WHERE id = ?";
    private static final String FIND = "SELECT " + COLUMNS + " FROM webhook_messages WHERE endpoint_id = ? AND msg_id = ?";
    private static final String PAGE = "SELECT " + COLUMNS + " FROM webhook_messages WHERE endpoint_id = ? AND id < ?"
            + " ORDER BY id DESC FETCH FIRST ? ROWS ONLY";
    private static final String ATTEMPTS = "SELECT a.id, a.message_id, m.msg_id, a.attempt, a.at, a.status, a.latency_ms,"
            + " a.outcome, a.response FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id"
            + " WHERE a.endpoint_id = ? AND a.id < ? AND (CAST(? AS VARCHAR(40)) IS NULL OR m.msg_id = ?) ORDER BY a.id DESC FETCH FIRST ? ROWS ONLY";
    private static final String REPLAY = "UPDATE webhook_messages SET state = 'pending', due_at = " + NOW
            + ", sending_until = NULL, ended_at = NULL WHERE id = ?"
            + " AND (state <> 'pending' OR sending_until IS NULL OR sending_until < " + NOW + ")";
    private static final String DELETE_ATTEMPTS_OF = "DELETE FROM webhook_attempts WHERE endpoint_id = ?";
    private static final String DELETE_MESSAGES_OF = "DELETE FROM webhook_messages WHERE endpoint_id = ?";
    private static final String ENDED_BEFORE = "SELECT id FROM webhook_messages WHERE created_at < ? AND state <> 'pending'"
            + " ORDER BY created_at FETCH FIRST ? ROWS ONLY";

    @Inject
    Statements statements;

    private static String prefixed(String alias) {
        return alias + "." + COLUMNS.replace(", ", ", " + alias + ".");
    }

    /** Locks the fan-out's cursor for this transaction; returns it. */
    public long lockCursor() {
        return statements.query(LOCK_CURSOR, s -> { }, rs -> rs.getLong(1), "locking the webhook fan-out").get(0);
    }

    public void moveCursor(long seq) {
        statements.updateOne(MOVE_CURSOR, s -> s.setLong(1, seq), "moving the webhook fan-out");
    }

    public void insert(List<WebhookMessage> messages) {
        if (messages.isEmpty()) {
            return;
        }
        statements.insertRows(INSERT, messages, "storing " + messages.size() + " webhook messages");
    }

    /**
     * Up to {@code limit} messages due now, each the first unfinished of its endpoint's lane, none of
     * the endpoints in {@code skipped} (those disabled: their messages wait, and must not fill the page).
     */
    public List<WebhookMessage> due(int limit, Collection<String> skipped) {
        List<String> skip = List.copyOf(skipped);
        String sql = DUE_HEAD + (skip.isEmpty() ? "" : " AND m.endpoint_id NOT IN ("
                + String.join(", ", Collections.nCopies(skip.size(), "?")) + ")") + DUE_TAIL;
        return statements.query(sql, s -> {
            int i = 1;
            for (String endpoint : skip) {
                s.setString(i++, endpoint);
            }
            s.setInt(i, limit);
        }, WebhookMessages::read, "finding due webhook messages");
    }

    /** The first unfinished message of an endpoint's lane; null when none is. */
    public WebhookMessage laneHead(String endpointId, String lane) {
        List<WebhookMessage> rows = statements.query(LANE_HEAD, s -> {
            s.setString(1, endpointId);
            s.setString(2, lane);
        }, WebhookMessages::read, "reading a webhook lane");
        return rows.isEmpty() ? null : rows.get(0);
    }

    /**
     * Takes the message for one attempt, for {@code leaseMs} from now; false when it is not due (yet)
     * or another instance took it first.
     */
    public boolean claim(WebhookMessage m, long leaseMs) {
        return statements.update(CLAIM, s -> {
            s.setLong(1, leaseMs);
            s.setLong(2, leaseMs);
            s.setLong(3, m.id());
            s.setLong(4, m.dueAt());
        }, "claiming webhook message " + m.msgId()) == 1;
    }

    /**
     * Ends attempt {@code attempt} of the message: delivered or failed (with {@code endedAt}), or
     * pending again, due {@code delayMs} from now. False when the attempt is no longer the message's
     * (its lease ran out and another instance took it, or it was replayed): then nothing changes.
     */
    public boolean finish(long id, int attempt, String state, long delayMs, Long endedAt) {
        return statements.update(FINISH, s -> {
            s.setString(1, state);
            s.setLong(2, delayMs);
            Statements.setLong(s, 3, endedAt);
            s.setLong(4, id);
            s.setInt(5, attempt);
        }, "ending a webhook attempt") == 1;
    }

    public void recordAttempt(WebhookMessage m, int attempt, long at, Integer status, long latencyMs, String outcome,
            String response) {
        statements.update(ATTEMPT, s -> {
            s.setLong(1, m.id());
            s.setString(2, m.endpointId());
            s.setInt(3, attempt);
            s.setLong(4, at);
            Statements.setInt(s, 5, status);
            s.setLong(6, latencyMs);
            s.setString(7, outcome);
            s.setString(8, response);
            s.setLong(9, m.id());
        }, "logging a webhook attempt");
    }

    public WebhookMessage find(String endpointId, String msgId) {
        List<WebhookMessage> rows = statements.query(FIND, s -> {
            s.setString(1, endpointId);
            s.setString(2, msgId);
        }, WebhookMessages::read, "reading webhook message " + msgId);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The endpoint's messages below id {@code before}, newest first. */
    public List<WebhookMessage> page(String endpointId, long before, int limit) {
        return statements.query(PAGE, s -> {
            s.setString(1, endpointId);
            s.setLong(2, before);
            s.setInt(3, limit);
        }, WebhookMessages::read, "listing webhook messages");
    }

    /** The endpoint's attempts below id {@code before} (of one message, when named), newest first. */
    public List<WebhookAttempt> attempts(String endpointId, String msgId, long before, int limit) {
        return statements.query(ATTEMPTS, s -> {
            s.setString(1, endpointId);
            s.setLong(2, before);
            s.setString(3, msgId);
            s.setString(4, msgId);
            s.setInt(5, limit);
        }, rs -> new WebhookAttempt(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getInt(4), rs.getLong(5),
                Statements.getInt(rs, 6), rs.getLong(7), rs.getString(8), rs.getString(9)), "listing webhook attempts");
    }

    /** Queues the message again, due at once; false while an instance is sending it. */
    public boolean replay(long id) {
        return statements.update(REPLAY, s -> s.setLong(1, id), "replaying a webhook message") == 1;
    }

    public void deleteOfEndpoint(String endpointId) {
        statements.update(DELETE_ATTEMPTS_OF, s -> s.setString(1, endpointId), "deleting webhook attempts");
        statements.update(DELETE_MESSAGES_OF, s -> s.setString(1, endpointId), "deleting webhook messages");
    }

    /** Deletes up to {@code limit} finished messages created before {@code cutoff}, with their attempts; returns how many. */
    public int pruneEnded(long cutoff, int limit) {
        List<Long> ids = statements.query(ENDED_BEFORE, s -> {
            s.setLong(1, cutoff);
            s.setInt(2, limit);
        }, rs -> rs.getLong(1), "finding old webhook messages");
        if (ids.isEmpty()) {
            return 0;
        }
        String in = Statements.placeholders(ids.size());
        Statements.Binder bind = s -> {
            for (int i = 0; i < ids.size(); i++) {
                s.setLong(i + 1, ids.get(i));
            }
        };
        statements.update("DELETE FROM webhook_attempts WHERE message_id IN (" + in + ")", bind, "pruning webhook attempts");
        return statements.update("DELETE FROM webhook_messages WHERE id IN (" + in + ")", bind, "pruning webhook messages");
    }

    private static WebhookMessage read(ResultSet rs) throws SQLException {
        return new WebhookMessage(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getLong(7), rs.getString(8), rs.getInt(9), rs.getLong(10), Statements.getLong(rs, 11),
                rs.getLong(12), Statements.getLong(rs, 13));
    }
}
