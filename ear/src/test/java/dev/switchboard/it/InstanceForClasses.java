package dev.switchboard.it;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One test instance that a few named classes share: started at the first class's first use,
 * stopped once each of them has finished with it — or when the test JVM exits, where a run selects
 * only some of them.
 */
final class InstanceForClasses {

    private final Set<Class<?>> users;
    private final Supplier<Instance> starter;
    private final Consumer<Instance> stopper;
    private final Set<Class<?>> finished = new HashSet<>();
    private Instance instance;
    private boolean stopped;

    /** {@code stopper} is how it stops: {@link Instance#stop}, or {@link Instance#stopNow} where clients may hold requests open. */
    InstanceForClasses(Set<Class<?>> users, Supplier<Instance> starter, Consumer<Instance> stopper) {
        this.users = Set.copyOf(users);
        this.starter = starter;
        this.stopper = stopper;
    }

    synchronized Instance get() {
        if (instance == null) {
            instance = starter.get();
            Runtime.getRuntime().addShutdownHook(new Thread(this::stop));
        }
        return instance;
    }

    /** A class on the instance is done with it: stopped once every one is. */
    synchronized void finished(Class<?> user) {
        if (!users.contains(user)) {
            throw new IllegalArgumentException(user + " is not one of the instance's classes " + users);
        }
        finished.add(user);
        if (finished.containsAll(users)) {
            stop();
        }
    }

    private synchronized void stop() {
        if (instance != null && !stopped) {
            stopped = true;
            stopper.accept(instance);
        }
    }
}
