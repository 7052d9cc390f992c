package dev.switchboard.it;

import dev.switchboard.testkit.Trees;
import java.util.Map;

/**
 * The instance most integration tests share: started once per test JVM, stopped when the JVM
 * exits. On PostgreSQL by default (a fresh database); with {@code -Dit.database=h2} on the
 * embedded default database instead, so the same tests prove both behave alike.
 */
final class SharedInstance {

    private static Instance instance;

    private SharedInstance() {
    }

    static boolean onH2() {
        return "h2".equals(System.getProperty("it.database"));
    }

    static synchronized Api api() {
        if (instance == null) {
            instance = onH2() ? startOnH2() : startOnPostgres();
            Runtime.getRuntime().addShutdownHook(new Thread(instance::stop));
        }
        return instance.api;
    }

    private static Instance startOnPostgres() {
        int port = 9181;
        String db = TestDatabase.recreate("switchboard_it_shared");
        return Instance.start("it-shared", port, Instance.defaults(db, port, "it-shared"));
    }

    private static Instance startOnH2() {
        int port = 9185;
        String name = "it-shared-h2";
        Trees.delete(Instance.outputDir(name)); // a fresh embedded database
        Map<String, String> env = Instance.defaults("unused", port, name);
        env.remove("DB_URL");
        env.remove("DB_USER");
        env.remove("DB_PASSWORD");
        return Instance.start(name, port, env);
    }
}
