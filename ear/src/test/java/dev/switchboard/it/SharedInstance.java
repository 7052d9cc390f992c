package dev.switchboard.it;

import dev.switchboard.testkit.Trees;
import java.util.EnumMap;
import java.util.Map;

/**
 * The instances most integration tests share, one per database: started at first use, stopped
 * when the test JVM exits. On PostgreSQL (a fresh database), and on H2 — the embedded default's
 * database, nothing configured — for the classes that run on both ({@code @ParameterizedClass}
 * over {@link Database}): what differs on H2 is its SQL and its locking, and those classes take
 * the stores' statements through every door.
 */
final class SharedInstance {

    /** The database an instance runs on. */
    enum Database {
        POSTGRESQL, H2
    }

    /**
     * The JUnit resource of these instances' state: classes that only add their own threads take it
     * to read, classes that change what every caller sees (the runtime's pause, exact counters) to write.
     */
    static final String LOCK = "it-shared-instance";

    /** The instances' GitHub webhook secret (GithubWebhookIT signs with it); ingress bodies are limited to 64 KiB. */
    static final String WEBHOOK_SECRET = "webhook-secret-for-tests";

    private static final String DATABASE = "switchboard_it_shared";
    private static final Map<Database, Instance> INSTANCES = new EnumMap<>(Database.class);

    private SharedInstance() {
    }

    /** The one on PostgreSQL. */
    static Api api() {
        return api(Database.POSTGRESQL);
    }

    static synchronized Api api(Database database) {
        Instance instance = INSTANCES.get(database);
        if (instance == null) {
            instance = database == Database.H2 ? startOnH2() : startOnPostgres();
            INSTANCES.put(database, instance);
            Runtime.getRuntime().addShutdownHook(new Thread(instance::stop));
        }
        return instance.api;
    }

    /** The PostgreSQL one's database (to count rows in). */
    static String database() {
        api();
        return DATABASE;
    }

    private static Map<String, String> settings(Map<String, String> env) {
        env.put("SWITCHBOARD_INGRESS_GITHUB_SECRET", WEBHOOK_SECRET);
        env.put("SWITCHBOARD_INGRESS_MAX_BODY_BYTES", "65536");
        env.put("SWITCHBOARD_RETENTION_EVERY_MS", "500"); // RetentionPassesIT waits for passes
        return env;
    }

    private static Instance startOnPostgres() {
        int port = 9181;
        String db = TestDatabase.recreate(DATABASE);
        return Instance.start("it-shared", port, settings(Instance.defaults(db, port, "it-shared")));
    }

    /** No database settings at all: the embedded H2 file database under its output directory, as a newcomer's. */
    private static Instance startOnH2() {
        int port = 9185;
        String name = "it-shared-h2";
        for (String state : new String[] {"data", "workspaces", "tranlog"}) { // a fresh embedded database
            Trees.delete(Instance.outputDir(name).resolve("switchboard").resolve(state));
        }
        Map<String, String> env = Instance.defaults("unused", port, name);
        env.remove("DB_URL");
        env.remove("DB_USER");
        env.remove("DB_PASSWORD");
        return Instance.start(name, port, settings(env));
    }
}
