package dev.switchboard.it;

/**
 * The instance most integration tests share: started once per test JVM on its own PostgreSQL
 * database, stopped when the JVM exits.
 */
final class SharedInstance {

    static final int PORT = 9181;
    private static Instance instance;

    private SharedInstance() {
    }

    static synchronized Api api() {
        if (instance == null) {
            String db = TestDatabase.recreate("switchboard_it_shared");
            instance = Instance.start("it-shared", PORT, Instance.defaults(db, PORT, "it-shared"));
            Runtime.getRuntime().addShutdownHook(new Thread(instance::stop));
        }
        return instance.api;
    }
}
