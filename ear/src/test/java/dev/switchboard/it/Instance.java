package dev.switchboard.it;

import dev.switchboard.testkit.ServerInstance;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One Switchboard instance for the HTTP tests: the testkit's {@link ServerInstance} (started,
 * stopped, killed and frozen through {@code scripts/instance.sh}) with an {@link Api} client.
 */
final class Instance implements AutoCloseable {

    static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();

    final String name;
    final int port;
    final Map<String, String> env;
    final Api api;
    private final ServerInstance server;

    private Instance(String name, int port, Map<String, String> env) {
        this.name = name;
        this.port = port;
        this.env = env;
        this.server = new ServerInstance(ROOT, name, port, env);
        this.api = new Api(server.url());
    }

    /**
     * Settings every test instance shares: a database, short leases and polls, the scripted
     * engine with its journal. The lease (5 s, renewed every second) is short so that recoveries are
     * quick, and no shorter: the classes run in parallel on two cores, and an instance starved of
     * CPU for a few seconds must not lose a lease a test expects it to keep.
     */
    static Map<String, String> defaults(String database, int port, String name) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DB_URL", TestDatabase.jdbcUrl(database));
        env.put("DB_USER", TestDatabase.user());
        env.put("DB_PASSWORD", TestDatabase.password());
        env.put("HTTP_PORT", Integer.toString(port));
        env.put("SWITCHBOARD_INSTANCE_ID", name);
        env.put("SWITCHBOARD_ENGINE", "scripted");
        env.put("SWITCHBOARD_ENGINE_SCRIPTED_JOURNAL", journalDir().resolve(name + ".jsonl").toString());
        env.put("SWITCHBOARD_LANES_LEASE_MS", "5000");
        env.put("SWITCHBOARD_LANES_HEARTBEAT_MS", "1000");
        env.put("SWITCHBOARD_LANES_POLL_MS", "500");
        // What other instances sequenced is read every half second (100 ms by default): an idle
        // instance's polls cost a few per cent of a core, and a dozen run at once beside the tests.
        env.put("SWITCHBOARD_NOTIFY_POLL_MS", "500");
        env.put("SWITCHBOARD_LANES_SHUTDOWN_GRACE_MS", "1000");
        // A dozen instances run at once on one PostgreSQL, whose 100 connections (its default) forty
        // each (ours) would exhaust: "too many clients" seen in a full run. Fifteen serve a loaded
        // class's twenty concurrent runs within the pool's 10 s timeout (ResponsesIT's finding).
        env.put("DB_POOL_MAX", "15");
        // And a connection a burst opened goes back within seconds, not half an hour: sixteen
        // instances' pools grown by their busiest moments reached 91 of the 100 in a full run.
        env.put("DB_POOL_MAX_IDLE", "10s");
        env.put("DB_POOL_REAP", "2s");
        return env;
    }

    /** Where the test instances' scripted engines write their journals (see EngineTrace). */
    static Path journalDir() {
        return Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath().resolve("engine-journals");
    }

    static Instance start(String name, int port, Map<String, String> env) {
        Instance instance = new Instance(name, port, env);
        instance.server.start();
        return instance;
    }

    /** Starts the same instance again (same name, port and settings). */
    Instance restart() {
        server.restart();
        return this;
    }

    void stop() {
        server.stop();
    }

    /** At a test's end: stopped without waiting for requests a stalled or streaming client still holds open. */
    void stopNow() {
        server.stopNow();
    }

    /** kill -9: the instance dies without releasing anything, as in a crash. */
    void kill() {
        server.kill();
    }

    /** SIGSTOP: alive but frozen — a late owner. */
    void pause() {
        server.pause();
    }

    /** SIGCONT. */
    void resume() {
        server.resume();
    }

    @Override
    public void close() {
        stop();
    }

    static Path outputDir(String name) {
        return ROOT.resolve("target/instances/" + name);
    }
}
