package dev.switchboard.core.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * One prepared statement on the data source's connection — the caller's transaction's shared one
 * inside a transaction — with its parameters bound by a lambda, and a failure turned into an
 * {@link IllegalStateException} that names what was being done (the {@link SQLException} stays its
 * cause, so callers that look for a SQLSTATE still find it). The plain-JDBC stores use it instead
 * of writing the same try-with-resources around every statement.
 */
public final class Statements {

    /** Binds a statement's parameters. */
    @FunctionalInterface
    public interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Reads one row of a result. */
    @FunctionalInterface
    public interface Row<T> {
        T read(ResultSet row) throws SQLException;
    }

    private final DataSource dataSource;

    public Statements(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Executes an update; returns the rows it changed. {@code what} names it in a failure. */
    public int update(String sql, Binder binder, String what) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            binder.bind(s);
            return s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(what + " failed", e);
        }
    }

    /** Executes an insert of one row; returns the value the database gave its {@code keyColumn} (a BIGINT). */
    public long insertReturningKey(String sql, String keyColumn, Binder binder, String what) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql, new String[] {keyColumn})) {
            binder.bind(s);
            s.executeUpdate();
            try (ResultSet keys = s.getGeneratedKeys()) {
                if (!keys.next()) {
                    throw new IllegalStateException(what + " returned no " + keyColumn);
                }
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(what + " failed", e);
        }
    }

    /** As {@link #update}, failing when it did not change exactly one row. */
    public void updateOne(String sql, Binder binder, String what) {
        int updated = update(sql, binder, what);
        if (updated != 1) {
            throw new IllegalStateException(what + " changed " + updated + " rows instead of one");
        }
    }

    /** Executes a query; returns its rows, read in order. */
    public <T> List<T> query(String sql, Binder binder, Row<T> row, String what) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            binder.bind(s);
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(row.read(rs));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(what + " failed", e);
        }
    }

    /** Inserts {@code rows} with {@code insert}'s multi-row statements (none for no rows). */
    public <T> void insertRows(MultiRowInsert<T> insert, List<T> rows, String what) {
        if (rows.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            insert.insert(c, rows);
        } catch (SQLException e) {
            throw new IllegalStateException(what + " failed", e);
        }
    }

    /** The most ids one {@code IN (…)} list binds: a statement binds at most 32,767 parameters on PostgreSQL. */
    public static final int IN_LIST = 1_000;

    /**
     * Executes {@code sqlFormat} with its one {@code %s} replaced by a parameter per id (an
     * {@code IN (…)} list), the ids bound in order, {@link #IN_LIST} ids a statement; returns the
     * rows it changed. No ids, no statement.
     */
    public int updateIn(String sqlFormat, List<?> ids, String what) {
        int changed = 0;
        for (List<?> chunk : chunks(ids)) {
            changed += update(String.format(sqlFormat, placeholders(chunk.size())), in(chunk), what);
        }
        return changed;
    }

    /**
     * As {@link #updateIn} for a query: the rows of each statement in turn (each in its own order,
     * the statements in the ids' order). No ids, no statement.
     */
    public <T> List<T> queryIn(String sqlFormat, List<?> ids, Row<T> row, String what) {
        List<T> rows = new ArrayList<>();
        for (List<?> chunk : chunks(ids)) {
            rows.addAll(query(String.format(sqlFormat, placeholders(chunk.size())), in(chunk), row, what));
        }
        return rows;
    }

    /** As {@link #queryIn}, {@code trailing} bound after each statement's ids (parameters that follow its list). */
    public <T> List<T> queryIn(String sqlFormat, List<?> ids, List<?> trailing, Row<T> row, String what) {
        List<T> rows = new ArrayList<>();
        for (List<?> chunk : chunks(ids)) {
            Binder in = in(chunk);
            rows.addAll(query(String.format(sqlFormat, placeholders(chunk.size())), s -> {
                in.bind(s);
                for (int i = 0; i < trailing.size(); i++) {
                    s.setObject(chunk.size() + i + 1, trailing.get(i));
                }
            }, row, what));
        }
        return rows;
    }

    private static List<List<?>> chunks(List<?> ids) {
        List<List<?>> chunks = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += IN_LIST) {
            chunks.add(ids.subList(i, Math.min(ids.size(), i + IN_LIST)));
        }
        return chunks;
    }

    private static Binder in(List<?> ids) {
        return s -> {
            for (int i = 0; i < ids.size(); i++) {
                s.setObject(i + 1, ids.get(i));
            }
        };
    }

    /** {@code n} parameters for an {@code IN (…)} list: {@code ?, ?, …}. */
    public static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    /** Binds a nullable BIGINT. */
    public static void setLong(PreparedStatement s, int index, Long value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.BIGINT);
        } else {
            s.setLong(index, value);
        }
    }

    /** Binds a nullable INTEGER. */
    public static void setInt(PreparedStatement s, int index, Integer value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.INTEGER);
        } else {
            s.setInt(index, value);
        }
    }

    /** Reads a nullable BIGINT. */
    public static Long getLong(ResultSet rs, int index) throws SQLException {
        long value = rs.getLong(index);
        return rs.wasNull() ? null : value;
    }

    /** Reads a nullable INTEGER. */
    public static Integer getInt(ResultSet rs, int index) throws SQLException {
        int value = rs.getInt(index);
        return rs.wasNull() ? null : value;
    }
}
