package dev.switchboard.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of the test's own on a loopback port, which the test may stop and start
 * (the shared server must never be touched). Uses the installed server binaries
 * ({@code /usr/lib/postgresql/<version>/bin}); as root, they run as user {@code postgres}.
 */
final class ThrowawayPostgres implements AutoCloseable {

    final int port;
    private final Path dir;
    private final Path bin;

    ThrowawayPostgres(int port) throws IOException, InterruptedException {
        this.port = port;
        this.bin = serverBinaries();
        this.dir = Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath().resolve("pg-" + port);
        delete(dir);
        Files.createDirectories(dir);
        if (isRoot()) {
            run(List.of("chown", "-R", "postgres", dir.toString()));
        }
        run(asServerUser(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-A", "trust",
                "-U", "postgres"));
        start();
    }

    String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    void start() throws IOException, InterruptedException {
        run(asServerUser(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                dir.resolve("log").toString(), "-w", "-o",
                "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir, "start"));
    }

    void stop() throws IOException, InterruptedException {
        run(asServerUser(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast",
                "-w", "stop"));
    }

    void createDatabase(String name) throws IOException, InterruptedException {
        run(List.of("psql", "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "postgres", "-d", "postgres",
                "-c", "CREATE DATABASE " + name));
    }

    @Override
    public void close() throws Exception {
        try {
            stop();
        } catch (IllegalStateException alreadyStopped) {
            // nothing to stop
        }
    }

    private static Path serverBinaries() {
        File[] versions = new File("/usr/lib/postgresql").listFiles();
        if (versions == null || versions.length == 0) {
            throw new IllegalStateException("PostgreSQL server binaries are required (/usr/lib/postgresql/<v>/bin); "
                    + "scripts/ensure-postgres.sh installs them");
        }
        Arrays.sort(versions, Comparator.comparing(File::getName));
        return versions[versions.length - 1].toPath().resolve("bin");
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static List<String> asServerUser(String... command) {
        List<String> cmd = new ArrayList<>();
        if (isRoot()) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(List.of(command));
        return cmd;
    }

    private void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(new File("/")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
        }
    }

    private static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
