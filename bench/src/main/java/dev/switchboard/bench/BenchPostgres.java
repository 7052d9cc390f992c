package dev.switchboard.bench;

import dev.switchboard.testkit.ThrowawayPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

/**
 * The benchmark's own PostgreSQL server: a fresh cluster on a loopback port with
 * {@code pg_stat_statements} preloaded, so {@link ServerCost} can count statement executions
 * (the machine's shared server does not preload it, and is never restarted for a benchmark). It
 * prints {@code ready <pid> <jdbc-url>} once the database exists, then runs until it is
 * terminated; its shutdown hook stops the server and removes the cluster.
 *
 * <pre>BenchPostgres PORT WORK_DIR DATABASE</pre>
 */
public final class BenchPostgres {

    private BenchPostgres() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: BenchPostgres PORT WORK_DIR DATABASE");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        ThrowawayPostgres postgres = new ThrowawayPostgres(port, Path.of(args[1]),
                List.of("shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all"));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                postgres.close();
            } catch (Exception e) {
                System.err.println("could not stop the benchmark's PostgreSQL: " + e);
            }
        }));
        postgres.createDatabase(args[2]);
        String url = postgres.jdbcUrl(args[2]);
        try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION pg_stat_statements");
        }
        System.out.println("ready " + ProcessHandle.current().pid() + " " + url);
        System.out.flush();
        Thread.currentThread().join(); // until terminated
    }
}
