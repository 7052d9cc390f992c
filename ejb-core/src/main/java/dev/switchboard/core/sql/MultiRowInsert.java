package dev.switchboard.core.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

/**
 * Inserts many rows with one statement per chunk ({@code INSERT ... VALUES (...), (...), ...})
 * instead of one statement per row: the outbox's and the sequencer's writes are the hottest
 * inserts of a run, and the log journal writes its entries the same way. Chunks are at most {@link #MAX_ROWS} rows, which keeps the statement texts
 * few (the data source caches one prepared statement per text and connection).
 */
public final class MultiRowInsert<T> {

    public static final int MAX_ROWS = 32;

    /** Binds one row's values from {@code index} on; returns the next free index. */
    @FunctionalInterface
    public interface Binder<T> {
        int bind(PreparedStatement statement, int index, T row) throws SQLException;
    }

    private final String head;
    private final String rowPlaceholders;
    private final Binder<T> binder;

    /** {@code head} is {@code INSERT INTO table (columns) VALUES }; {@code rowPlaceholders} one row's {@code (?, ...)}. */
    public MultiRowInsert(String head, String rowPlaceholders, Binder<T> binder) {
        this.head = head;
        this.rowPlaceholders = rowPlaceholders;
        this.binder = binder;
    }

    public void insert(Connection connection, List<T> rows) throws SQLException {
        for (int from = 0; from < rows.size(); from += MAX_ROWS) {
            List<T> chunk = rows.subList(from, Math.min(rows.size(), from + MAX_ROWS));
            try (PreparedStatement insert = connection.prepareStatement(
                    head + String.join(", ", Collections.nCopies(chunk.size(), rowPlaceholders)))) {
                int index = 1;
                for (T row : chunk) {
                    index = binder.bind(insert, index, row);
                }
                insert.executeUpdate();
            }
        }
    }
}
