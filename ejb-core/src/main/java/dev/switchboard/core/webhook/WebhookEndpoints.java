package dev.switchboard.core.webhook;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/** The {@code webhook_endpoints} rows: every statement on them. */
@Store("webhook_endpoints")
@ApplicationScoped
public class WebhookEndpoints {

    private static final String COLUMNS = "id, user_key, url, description, event_types, thread_key, secret,"
            + " previous_secret, previous_until, enabled, disabled_reason, created_at, updated_at";
    private static final String INSERT = "INSERT INTO webhook_endpoints (" + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String UPDATE = "UPDATE webhook_endpoints SET url = ?, description = ?, event_types = ?,"
            + " thread_key = ?, secret = ?, previous_secret = ?, previous_until = ?, enabled = ?, disabled_reason = ?,"
            + " updated_at = ? WHERE id = ? AND user_key = ?";
    private static final String FIND = "SELECT " + COLUMNS + " FROM webhook_endpoints WHERE id = ? AND user_key = ?";
    private static final String BY_ID = "SELECT " + COLUMNS + " FROM webhook_endpoints WHERE id = ?";
    private static final String OF_USER = "SELECT " + COLUMNS + " FROM webhook_endpoints WHERE user_key = ?"
            + " ORDER BY created_at, id";
    private static final String ENABLED = "SELECT " + COLUMNS + " FROM webhook_endpoints WHERE enabled = TRUE";
    private static final String DISABLED_IDS = "SELECT id FROM webhook_endpoints WHERE enabled = FALSE";
    private static final String ANY_ENABLED = "SELECT 1 FROM webhook_endpoints WHERE enabled = TRUE FETCH FIRST 1 ROWS ONLY";
    private static final String COUNT = "SELECT COUNT(*) FROM webhook_endpoints WHERE user_key = ?";
    private static final String DELETE = "DELETE FROM webhook_endpoints WHERE id = ? AND user_key = ?";
    private static final String DISABLE = "UPDATE webhook_endpoints SET enabled = FALSE, disabled_reason = ?,"
            + " updated_at = ? WHERE id = ? AND enabled = TRUE";

    @Inject
    Statements statements;

    public void insert(Endpoint e) {
        statements.update(INSERT, s -> {
            s.setString(1, e.id());
            s.setString(2, e.userKey());
            s.setString(3, e.url());
            s.setString(4, e.description());
            s.setString(5, String.join(" ", e.eventTypes()));
            s.setString(6, e.threadKey());
            s.setString(7, e.secret());
            s.setString(8, e.previousSecret());
            Statements.setLong(s, 9, e.previousUntil());
            s.setBoolean(10, e.enabled());
            s.setString(11, e.disabledReason());
            s.setLong(12, e.createdAt());
            s.setLong(13, e.updatedAt());
        }, "storing webhook endpoint " + e.id());
    }

    public void update(Endpoint e) {
        statements.updateOne(UPDATE, s -> {
            s.setString(1, e.url());
            s.setString(2, e.description());
            s.setString(3, String.join(" ", e.eventTypes()));
            s.setString(4, e.threadKey());
            s.setString(5, e.secret());
            s.setString(6, e.previousSecret());
            Statements.setLong(s, 7, e.previousUntil());
            s.setBoolean(8, e.enabled());
            s.setString(9, e.disabledReason());
            s.setLong(10, e.updatedAt());
            s.setString(11, e.id());
            s.setString(12, e.userKey());
        }, "updating webhook endpoint " + e.id());
    }

    /** The user's endpoint; null when the user has none with that id. */
    public Endpoint find(String userKey, String id) {
        List<Endpoint> rows = statements.query(FIND, s -> {
            s.setString(1, id);
            s.setString(2, userKey);
        }, WebhookEndpoints::read, "reading webhook endpoint " + id);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The endpoint, whoever's; null when gone. */
    public Endpoint byId(String id) {
        List<Endpoint> rows = statements.query(BY_ID, s -> s.setString(1, id), WebhookEndpoints::read,
                "reading webhook endpoint " + id);
        return rows.isEmpty() ? null : rows.get(0);
    }

    public List<Endpoint> ofUser(String userKey) {
        return statements.query(OF_USER, s -> s.setString(1, userKey), WebhookEndpoints::read,
                "listing webhook endpoints");
    }

    /** Every enabled endpoint: what the fan-out matches events against. */
    public List<Endpoint> enabled() {
        return statements.query(ENABLED, s -> { }, WebhookEndpoints::read, "listing enabled webhook endpoints");
    }

    /** The ids of the endpoints disabled (their messages wait until one is enabled again). */
    public List<String> disabledIds() {
        return statements.query(DISABLED_IDS, s -> { }, rs -> rs.getString(1), "listing disabled webhook endpoints");
    }

    /** Whether any user has an endpoint enabled (a probe that stops at the first, not every endpoint read). */
    public boolean anyEnabled() {
        return !statements.query(ANY_ENABLED, s -> { }, rs -> rs.getInt(1), "looking for an enabled webhook endpoint").isEmpty();
    }

    public long count(String userKey) {
        return statements.query(COUNT, s -> s.setString(1, userKey), rs -> rs.getLong(1), "counting webhook endpoints")
                .get(0);
    }

    public boolean delete(String userKey, String id) {
        return statements.update(DELETE, s -> {
            s.setString(1, id);
            s.setString(2, userKey);
        }, "deleting webhook endpoint " + id) == 1;
    }

    /** Disables an enabled endpoint; false when it was not enabled (or is gone). */
    public boolean disable(String id, String reason, long now) {
        return statements.update(DISABLE, s -> {
            s.setString(1, reason);
            s.setLong(2, now);
            s.setString(3, id);
        }, "disabling webhook endpoint " + id) == 1;
    }

    private static Endpoint read(ResultSet rs) throws SQLException {
        return new Endpoint(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                Arrays.asList(rs.getString(5).split(" ")), rs.getString(6), rs.getString(7), rs.getString(8),
                Statements.getLong(rs, 9), rs.getBoolean(10), rs.getString(11), rs.getLong(12), rs.getLong(13));
    }
}
