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
 *
 * <p>And one with API tokens ({@link #authenticated()}), on PostgreSQL, for the classes that need
 * several users and nothing else of their own: each class's users are its own (a user's threads,
 * runtime pause, log lines and operator role are that user's), so the classes do not see each
 * other's work. Settings that change every user's behaviour (the engine, session pruning, queue
 * caps, a context limit) stay off it: a class that needs one keeps an instance of its own.
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

    /**
     * The JUnit resource of the authenticated instance's state: classes that only work as their own
     * users take it to read; classes that check what everybody's traffic leaves (the server's log
     * file, an operator's view of every user's log lines) to write. A resource of its own, not
     * {@link #LOCK}: a class alone on this instance does not hold up the classes of the others.
     */
    static final String AUTH_LOCK = "it-shared-auth-instance";

    /** The authenticated instance's name (its files are under {@code Instance.outputDir(AUTH_NAME)}) and port. */
    static final String AUTH_NAME = "it-shared-auth";
    static final int AUTH_PORT = 9228;
    private static final String AUTH_DATABASE = "switchboard_it_shared_auth";

    /** AuthIT's users alice, bob and carol — carol the only operator — and its metrics-only scrape token. */
    static final String AUTH_ALICE = "alice-token-0123456789";
    static final String AUTH_BOB = "bob-token-0123456789abc";
    static final String AUTH_CAROL = "carol-token-0123456789";
    static final String AUTH_SCRAPER = "scrape-token-0123456789";

    /** ChatIT's users chat-alice, chat-bob, chat-carol and chat-dave (it counts a user's threads: none shared). */
    static final String CHAT_ALICE = "alice-chat-token-0123456789";
    static final String CHAT_BOB = "bob-chat-token-0123456789ab";
    static final String CHAT_CAROL = "carol-chat-token-012345678";
    static final String CHAT_DAVE = "dave-chat-token-0123456789";

    /** IngressEventsIT's user (its events, pause and main thread are that user's). */
    static final String INGRESS_USER_TOKEN = "ingress-token-0123456789";

    private static Instance authenticated;

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

    /**
     * The one with API tokens, started at first use. Stopped at exit without waiting for requests a
     * streaming client may still hold open (ChatIT reads event streams).
     */
    static synchronized Instance authenticated() {
        if (authenticated == null) {
            String db = TestDatabase.recreate(AUTH_DATABASE);
            Map<String, String> env = Instance.defaults(db, AUTH_PORT, AUTH_NAME);
            // Unique tokens (the instance refuses to start on a duplicate) and user names unique per class.
            env.put("SWITCHBOARD_AUTH_TOKENS", String.join(",",
                    AUTH_ALICE + "=alice", AUTH_BOB + "=bob", AUTH_CAROL + "=carol",
                    CHAT_ALICE + "=chat-alice", CHAT_BOB + "=chat-bob", CHAT_CAROL + "=chat-carol",
                    CHAT_DAVE + "=chat-dave", INGRESS_USER_TOKEN + "=ingress-user"));
            env.put("SWITCHBOARD_AUTH_OPERATORS", "carol"); // an operator sees every user's log lines and /metrics
            env.put("SWITCHBOARD_METRICS_TOKEN", AUTH_SCRAPER);
            env.put("SWITCHBOARD_INGRESS_MAX_BODY_BYTES", "65536"); // IngressEventsIT's too-large event
            Instance started = Instance.start(AUTH_NAME, AUTH_PORT, env);
            Runtime.getRuntime().addShutdownHook(new Thread(started::stopNow));
            authenticated = started;
        }
        return authenticated;
    }

    /** The authenticated one's database (to count rows in). */
    static String authDatabase() {
        authenticated();
        return AUTH_DATABASE;
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
