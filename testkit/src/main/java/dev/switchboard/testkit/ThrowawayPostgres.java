package dev.switchboard.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL cluster of the test's own on a loopback port, which the test may stop and start
 * (the shared server must never be touched). Uses the installed server binaries
 * ({@code /usr/lib/postgresql/<version>/bin}); as root, they run as user {@code postgres}, and
 * where that user cannot reach the work directory (a clone inside a directory only root may
 * enter) the cluster lives in a temporary directory instead, removed on {@link #close()}.
 */
public final class ThrowawayPostgres implements AutoCloseable {

    public final int port;
    private final Path dir;
    private final Path bin;
    /** The temporary directory holding the cluster when the work directory is out of reach, else null. */
    private final Path detour;
    private final List<String> settings;

    /** A cluster under {@code it.work.dir} (default {@code target/it}). */
    public ThrowawayPostgres(int port) throws IOException, InterruptedException {
        this(port, Path.of(System.getProperty("it.work.dir", "target/it")));
    }

    /** A fresh cluster in {@code workDir/pg-<port>}, started. */
    public ThrowawayPostgres(int port, Path workDir) throws IOException, InterruptedException {
        this(port, workDir, List.of());
    }

    /**
     * A fresh cluster in {@code workDir/pg-<port>}, started with these server settings
     * ({@code name=value}, as {@code postgres -c} takes them) on top of initdb's defaults.
     */
    public ThrowawayPostgres(int port, Path workDir, List<String> settings) throws IOException, InterruptedException {
        this.port = port;
        this.settings = List.copyOf(settings);
        this.bin = serverBinaries();
        Path inWorkDir = workDir.toAbsolutePath().resolve("pg-" + port);
        Trees.delete(inWorkDir);
        Files.createDirectories(inWorkDir);
        if (isRoot()) {
            run(List.of("chown", "-R", "postgres", inWorkDir.toString()));
        }
        if (isRoot() && !serverUserCanWrite(inWorkDir)) {
            Trees.delete(inWorkDir);
            this.detour = Files.createTempDirectory("switchboard-pg-");
            this.dir = detour.resolve("pg-" + port);
            Files.createDirectories(dir);
            run(List.of("chown", "-R", "postgres", detour.toString()));
        } else {
            this.detour = null;
            this.dir = inWorkDir;
        }
        run(asServerUser(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-A", "trust",
                "-U", "postgres"));
        start();
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public void start() throws IOException, InterruptedException {
        StringBuilder options = new StringBuilder("-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir);
        settings.forEach(setting -> options.append(" -c ").append(setting));
        run(asServerUser(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                dir.resolve("log").toString(), "-w", "-o", options.toString(), "start"));
    }

    public void stop() throws IOException, InterruptedException {
        run(asServerUser(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast",
                "-w", "stop"));
    }

    public void createDatabase(String name) throws IOException, InterruptedException {
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
        if (detour != null) {
            Trees.delete(detour);
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

    private static boolean serverUserCanWrite(Path directory) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(asServerUser("test", "-w", directory.toString())).directory(new File("/"))
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
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

}
