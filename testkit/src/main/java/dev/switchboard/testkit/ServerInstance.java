package dev.switchboard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Switchboard instance on Liberty, controlled through the project's own
 * {@code scripts/instance.sh}: its own output directory ({@code target/instances/<name>}), port and
 * settings (environment variables); several may share one database. Besides start, stop and
 * kill -9 it can freeze the process (SIGSTOP) and let it go on (SIGCONT): an owner that is alive
 * but late.
 */
public final class ServerInstance {

    private final Path root;
    private final String name;
    private final int port;
    private final Map<String, String> env;

    /** {@code root}: the project's top directory (where {@code scripts/instance.sh} is). */
    public ServerInstance(Path root, String name, int port, Map<String, String> env) {
        this.root = root.toAbsolutePath().normalize();
        this.name = name;
        this.port = port;
        this.env = new LinkedHashMap<>(env);
        this.env.put("HTTP_PORT", Integer.toString(port));
        this.env.putIfAbsent("SWITCHBOARD_INSTANCE_ID", name);
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public Map<String, String> env() {
        return env;
    }

    /** Where this instance writes its logs, transaction log and embedded database. */
    public Path outputDir() {
        return root.resolve("target/instances/" + name);
    }

    /** Starts it (a leftover process of the same name is killed first) and waits until it is ready. */
    public ServerInstance start() {
        script("kill");
        seedWorkarea();
        counted("start");
        requireFreePort();
        script("start");
        return this;
    }

    /** Starts it again after a stop or kill, with the same name, port and settings. */
    public ServerInstance restart() {
        counted("restart");
        requireFreePort();
        script("start");
        return this;
    }

    /**
     * Fails when something else listens on this instance's port: otherwise the start script would
     * find that other server ready and the test would talk to it (two classes given one port). A
     * process of this instance's that was just killed may hold it a moment longer: waited for.
     */
    private void requireFreePort() {
        try {
            Await.until(Duration.ofSeconds(30), this::portIsFree, "port " + port + " of instance " + name
                    + " is taken by another process (two test classes given one port?)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private boolean portIsFree() {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true); // a port in TIME_WAIT after this instance's own stop is free
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** The file every start of a test instance adds a line to ({@link SlowestTests} counts them). */
    static Path startsLog(Path root) {
        return root.resolve("target/instances/starts.log");
    }

    /** Adds {@code <epoch ms> <start|restart> <name>} to the starts log: what the suite's Liberty starts cost is counted, not guessed. */
    private void counted(String kind) {
        Path log = startsLog(root);
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(log, System.currentTimeMillis() + " " + kind + " " + name + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot count the start of " + name + " in " + log, e);
        }
    }

    /** Graceful stop: in-flight runs finish or are handed back. */
    public void stop() {
        script("stop");
        donateWorkarea();
    }

    /**
     * Graceful stop without Liberty's quiesce: runs finish or are handed back as in {@link #stop},
     * but requests still open (a deliberately stalled client's, a stream) are cut instead of waited
     * for up to 30 s — for a test's end, not for a test of stopping.
     */
    public void stopNow() {
        script("stop-now");
        donateWorkarea();
    }

    /** kill -9: the process dies without releasing anything, as in a crash. */
    public void kill() {
        script("kill");
    }

    /** SIGSTOP: the process is frozen — alive, holding its leases and sockets, doing nothing. */
    public void pause() {
        script("pause");
    }

    /** SIGCONT: a frozen process goes on where it stopped. */
    public void resume() {
        script("resume");
    }

    /**
     * Liberty's workarea (its OSGi framework, feature and annotation caches) of the first instance
     * stopped cleanly, kept to seed instances that start with none: every test instance runs the one
     * server configuration, and a seeded start costs about 2.5 s of CPU less than a cold one.
     */
    private Path workareaTemplate() {
        return root.resolve("target/instances/.workarea-template");
    }

    private Path workarea() {
        return outputDir().resolve("switchboard/workarea");
    }

    private void seedWorkarea() {
        Path template = workareaTemplate();
        if (Files.isDirectory(template) && !Files.exists(workarea())) {
            Trees.copy(template, workarea());
        }
    }

    private void donateWorkarea() {
        Path template = workareaTemplate();
        if (Files.exists(template) || !Files.isDirectory(workarea())) {
            return;
        }
        // Copied aside, then renamed into place: an instance starting meanwhile sees all of it or none.
        Path copy = template.resolveSibling(template.getFileName() + "." + name);
        Trees.delete(copy);
        Trees.copy(workarea(), copy);
        try {
            Files.move(copy, template, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException anotherWasFaster) {
            Trees.delete(copy);
        }
    }

    private void script(String command) {
        List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("scripts/instance.sh").toString(), command, name));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true);
        // A test instance lives for a minute or two: the client compiler alone starts it about a third
        // faster on two cores (no server-compiler work competing with the start), and nothing in a test
        // depends on peak throughput — the benchmarks start their instances without it.
        // The serial collector as well: a test instance's heap is small, and G1's concurrent threads would
        // only compete with the other instances and the tests for the cores.
        pb.environment().put("JVM_ARGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        pb.environment().putAll(env);
        String wlpHome = System.getProperty("wlp.home");
        if (wlpHome != null) {
            pb.environment().put("WLP_HOME", wlpHome);
        }
        try {
            Files.createDirectories(root.resolve("target/instances"));
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("instance.sh " + command + " " + name + " timed out");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("instance.sh " + command + " " + name + " failed:\n" + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
