package dev.switchboard.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Switchboard instance on Liberty, started through the project's own {@code scripts/instance.sh}
 * with its own output directory, port and settings; several may share one database.
 */
final class Instance implements AutoCloseable {

    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();

    final String name;
    final int port;
    final Map<String, String> env;
    final Api api;

    private Instance(String name, int port, Map<String, String> env) {
        this.name = name;
        this.port = port;
        this.env = env;
        this.api = new Api("http://127.0.0.1:" + port);
    }

    /** Settings every test instance shares: a database, fast leases and polls, the scripted engine. */
    static Map<String, String> defaults(String database, int port, String name) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DB_URL", TestDatabase.jdbcUrl(database));
        env.put("DB_USER", TestDatabase.user());
        env.put("DB_PASSWORD", TestDatabase.password());
        env.put("HTTP_PORT", Integer.toString(port));
        env.put("SWITCHBOARD_INSTANCE_ID", name);
        env.put("SWITCHBOARD_ENGINE", "scripted");
        env.put("SWITCHBOARD_LANES_LEASE_MS", "2000");
        env.put("SWITCHBOARD_LANES_HEARTBEAT_MS", "500");
        env.put("SWITCHBOARD_LANES_POLL_MS", "200");
        env.put("SWITCHBOARD_LANES_SHUTDOWN_GRACE_MS", "1000");
        return env;
    }

    static Instance start(String name, int port, Map<String, String> env) {
        Instance instance = new Instance(name, port, env);
        instance.script("kill");
        instance.script("start");
        return instance;
    }

    /** Starts the same instance again (same name, port and settings). */
    Instance restart() {
        script("start");
        return this;
    }

    void stop() {
        script("stop");
    }

    /** kill -9: the instance dies without releasing anything, as in a crash. */
    void kill() {
        script("kill");
    }

    @Override
    public void close() {
        stop();
    }

    static Path outputDir(String name) {
        return ROOT.resolve("target/instances/" + name);
    }

    private void script(String command) {
        List<String> cmd = new ArrayList<>(List.of("bash", ROOT.resolve("scripts/instance.sh").toString(), command, name));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        String wlpHome = System.getProperty("wlp.home");
        if (wlpHome != null) {
            pb.environment().put("WLP_HOME", wlpHome);
        }
        try {
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
