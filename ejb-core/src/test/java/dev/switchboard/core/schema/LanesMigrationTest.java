package dev.switchboard.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.persistence.schema.SchemaMigrator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * V30 moves the lane's columns out of {@code threads} into {@code lanes}, on a database that has
 * threads already — a held lease, a free lane, numbers handed out — on PostgreSQL and on the
 * embedded H2 a newcomer's server keeps between starts: every lease and next number arrives
 * unchanged, and {@code threads} keeps none of them.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class LanesMigrationTest {

    private final FreshDatabase.Kind kind;

    LanesMigrationTest(FreshDatabase.Kind kind) {
        this.kind = kind;
    }

    @Test
    void everyLanesLeaseAndNumberMoveWithItAndThreadsKeepsNone() throws SQLException {
        DataSource db = FreshDatabase.create(kind, "switchboard_lanes_migration", "29");
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO threads (id, user_key, thread_key, next_seq, lease_owner, lease_until, lease_run_id,"
                    + " lease_attempt, created_at) VALUES (7, 'u', 'held', 5, 'it-a-1', 1795000000000, 'run-4', 2, 0)");
            s.execute("INSERT INTO threads (id, user_key, thread_key, next_seq, created_at) VALUES (8, 'u', 'free', 1, 0)");
        }

        assertEquals(1, SchemaMigrator.migrate(db), "V30 alone is pending");

        assertEquals(List.of("7 5 it-a-1 1795000000000 run-4 2", "8 1 null null null null"),
                rows(db, "SELECT thread_id, next_seq, lease_owner, lease_until, lease_run_id, lease_attempt FROM lanes"
                        + " ORDER BY thread_id"));
        List<String> threadColumns = rows(db, "SELECT column_name FROM information_schema.columns"
                + " WHERE lower(table_name) = 'threads'");
        assertTrue(threadColumns.stream().map(n -> n.toLowerCase(Locale.ROOT)).anyMatch("workspace_head"::equals),
                "the columns read: " + threadColumns);
        assertFalse(threadColumns.stream().map(n -> n.toLowerCase(Locale.ROOT))
                .anyMatch(n -> n.startsWith("lease_") || n.equals("next_seq")), "threads keeps: " + threadColumns);
    }

    private static List<String> rows(DataSource db, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(String.valueOf(rs.getString(i)));
                }
                rows.add(String.join(" ", row));
            }
        }
        return rows;
    }
}
