package dev.switchboard.bench;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a measured window cost the server: CPU of the instance's JVM (and of its JIT compiler
 * threads), CPU of every PostgreSQL process, this client's own CPU, and from PostgreSQL's
 * statistics the commits, rows written, WAL and — where {@code pg_stat_statements} is loaded —
 * statement executions. Read from {@code /proc} (Linux) and the database before and after.
 *
 * <p>PostgreSQL backends publish their counters when idle for a while (10 s at most), so each
 * snapshot first waits {@link #SETTLE_MS} after the load; the server's own timers (heartbeat, poll)
 * add a few commits per second meanwhile, small against thousands of runs.
 */
final class ServerCost {

    static final long SETTLE_MS = 11_000;
    private static final double TICKS_PER_MS = 100 / 1000.0; // USER_HZ, 100 on Linux

    /** Counters at one moment. */
    record Snapshot(long jvmTicks, long jitTicks, long postgresTicks, long clientCpuNs, long commits,
            long inserted, long updated, long deleted, long walBytes, long statements, Map<String, Long> callsByQuery) {
    }

    private final long pid;
    private final String dbUrl;

    ServerCost(long pid, String dbUrl) {
        this.pid = pid;
        this.dbUrl = dbUrl;
    }

    Snapshot snapshot() throws IOException, InterruptedException, SQLException {
        Thread.sleep(SETTLE_MS);
        long commits;
        long inserted;
        long updated;
        long deleted;
        long wal;
        long statements = -1;
        Map<String, Long> callsByQuery = new HashMap<>();
        try (Connection c = DriverManager.getConnection(dbUrl, "postgres", "");
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT xact_commit, tup_inserted, tup_updated, tup_deleted,"
                    + " pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"
                    + " FROM pg_stat_database WHERE datname = current_database()")) {
                rs.next();
                commits = rs.getLong(1);
                inserted = rs.getLong(2);
                updated = rs.getLong(3);
                deleted = rs.getLong(4);
                wal = rs.getLong(5);
            }
            try (ResultSet rs = s.executeQuery("SELECT query, calls FROM pg_stat_statements"
                    + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())")) {
                statements = 0;
                while (rs.next()) {
                    callsByQuery.merge(rs.getString(1), rs.getLong(2), Long::sum);
                    statements += rs.getLong(2);
                }
            } catch (SQLException e) {
                // pg_stat_statements is not installed or not preloaded: statements stay unknown
            }
        }
        long client = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        return new Snapshot(ticks(Path.of("/proc", Long.toString(pid), "stat")), jitTicks(), postgresTicks(), client,
                commits, inserted, updated, deleted, wal, statements, callsByQuery);
    }

    /** The statements executed most often in the window, per run, most frequent first (empty when not counted). */
    static List<String> topStatements(Snapshot before, Snapshot after, int runs, int limit) {
        double n = Math.max(runs, 1);
        return after.callsByQuery.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.callsByQuery.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(limit)
                .map(e -> String.format("%6.2f  %s", e.getValue() / n, oneLine(e.getKey(), 150)))
                .toList();
    }

    private static String oneLine(String sql, int max) {
        String line = sql.replaceAll("\\s+", " ");
        return line.length() <= max ? line : line.substring(0, max) + "…";
    }

    /** The window's cost per run, as JSON members. */
    static JsonObjectBuilder perRun(Snapshot before, Snapshot after, int runs) {
        double n = Math.max(runs, 1);
        double jvmMs = (after.jvmTicks - before.jvmTicks) / TICKS_PER_MS;
        double jitMs = (after.jitTicks - before.jitTicks) / TICKS_PER_MS;
        JsonObjectBuilder b = Json.createObjectBuilder()
                .add("jvm_cpu_ms_per_run", round(jvmMs / n))
                .add("jit_cpu_share", jvmMs > 0 ? round(jitMs / jvmMs) : 0)
                .add("postgres_cpu_ms_per_run", round((after.postgresTicks - before.postgresTicks) / TICKS_PER_MS / n))
                .add("client_cpu_ms_per_run", round((after.clientCpuNs - before.clientCpuNs) / 1e6 / n))
                .add("commits_per_run", round((after.commits - before.commits) / n))
                .add("rows_inserted_per_run", round((after.inserted - before.inserted) / n))
                .add("rows_updated_per_run", round((after.updated - before.updated) / n))
                .add("rows_deleted_per_run", round((after.deleted - before.deleted) / n))
                .add("wal_kb_per_run", round((after.walBytes - before.walBytes) / 1024.0 / n));
        if (before.statements >= 0 && after.statements >= 0) {
            b.add("statements_per_run", round((after.statements - before.statements) / n));
        }
        return b;
    }

    private long jitTicks() throws IOException {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long sum = 0;
        try (Stream<Path> list = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) list::iterator) {
                String comm = read(task.resolve("comm"));
                if (comm != null && comm.contains("CompilerThre")) {
                    sum += ticks(task.resolve("stat"));
                }
            }
        }
        return sum;
    }

    /** CPU of every process named {@code postgres} on the machine (the benchmark owns the machine). */
    private static long postgresTicks() throws IOException {
        long sum = 0;
        try (Stream<Path> list = Files.list(Path.of("/proc"))) {
            for (Path proc : (Iterable<Path>) list::iterator) {
                String name = proc.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String comm = read(proc.resolve("comm"));
                if ("postgres".equals(comm)) {
                    sum += ticks(proc.resolve("stat"));
                }
            }
        }
        return sum;
    }

    /** utime + stime of a /proc stat file, in clock ticks; 0 if the process or thread is gone. */
    private static long ticks(Path stat) {
        String line = read(stat);
        if (line == null) {
            return 0;
        }
        String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields 14 and 15 of proc(5)
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return null; // exited meanwhile
        }
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
