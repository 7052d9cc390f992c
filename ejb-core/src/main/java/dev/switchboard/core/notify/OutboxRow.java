package dev.switchboard.core.notify;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * One notification as the outbox and the log store it; {@code threadKey} is null for
 * notifications about no thread. The outbox's insert and the sequencer's move bind it alike.
 */
record OutboxRow(String userKey, String threadKey, String method, String params, long createdAt) {

    /** The columns {@link #bind} fills, in order. */
    static final String COLUMNS = "user_key, thread_key, method, params, created_at";

    int bind(PreparedStatement statement, int index) throws SQLException {
        statement.setString(index++, userKey);
        if (threadKey == null) {
            statement.setNull(index++, Types.VARCHAR);
        } else {
            statement.setString(index++, threadKey);
        }
        statement.setString(index++, method);
        statement.setString(index++, params);
        statement.setLong(index++, createdAt);
        return index;
    }
}
