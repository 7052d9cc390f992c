package dev.switchboard.it;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Test instances that a few named classes share — one {@link Instance}, or a pair on one database:
 * started at the first class's first use, stopped once each of them has finished with them — or
 * when the test JVM exits, where a run selects only some of them.
 *
 * @param <T> what is shared: an {@link Instance}, or a holder of several
 */
final class InstanceForClasses<T> {

    private final Set<Class<?>> users;
    private final Supplier<T> starter;
    private final Consumer<T> stopper;
    private final Set<Class<?>> finished = new HashSet<>();
    private T instance;
    private boolean stopped;

    /** {@code stopper} is how it stops: {@link Instance#stop}, or {@link Instance#stopNow} where clients may hold requests open. */
    InstanceForClasses(Set<Class<?>> users, Supplier<T> starter, Consumer<T> stopper) {
        this.users = Set.copyOf(users);
        this.starter = starter;
        this.stopper = stopper;
    }

    synchronized T get() {
        if (instance == null) {
            instance = starter.get();
            Runtime.getRuntime().addShutdownHook(new Thread(this::stop));
        }
        return instance;
    }

    /** A class on the instance is done with it: stopped once every one is. */
    synchronized void finished(Class<?> user) {
        requireUser(user);
        finished.add(user);
        notifyAll();
        if (finished.containsAll(users)) {
            stop();
        }
    }

    /**
     * Waits until every other class on the instance that this run executes has finished with it:
     * for a test that ends what the others need (a kill -9). Only one class of a shared instance
     * may wait so, and classes start in their order: the others hold no thread this one waits for.
     */
    synchronized void awaitTheOthers(Class<?> user, Duration timeout) throws InterruptedException {
        requireUser(user);
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<Class<?>> others = new HashSet<>(users);
        others.remove(user);
        others.removeIf(other -> !PlannedClasses.includes(other));
        while (!finished.containsAll(others)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                Set<Class<?>> waiting = new HashSet<>(others);
                waiting.removeAll(finished);
                throw new AssertionError(user.getSimpleName() + " waited " + timeout + " for " + waiting + " to finish");
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    private void requireUser(Class<?> user) {
        if (!users.contains(user)) {
            throw new IllegalArgumentException(user + " is not one of the instance's classes " + users);
        }
    }

    private synchronized void stop() {
        if (instance != null && !stopped) {
            stopped = true;
            stopper.accept(instance);
        }
    }
}
