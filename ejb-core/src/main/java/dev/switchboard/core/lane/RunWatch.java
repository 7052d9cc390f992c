package dev.switchboard.core.lane;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * In-memory wake-ups for callers waiting on a run (long-poll). A signal only says "look again":
 * the database stays the truth and waiters re-read it, so a missed signal costs latency, never
 * correctness.
 */
@ApplicationScoped
public class RunWatch {

    private final ConcurrentMap<String, Set<CompletableFuture<Void>>> watches = new ConcurrentHashMap<>();

    /** A new future, completed at the next change of the run on this instance. */
    public CompletableFuture<Void> register(String runId) {
        CompletableFuture<Void> watch = new CompletableFuture<>();
        watches.computeIfAbsent(runId, id -> ConcurrentHashMap.newKeySet()).add(watch);
        return watch;
    }

    public void changed(String runId) {
        Set<CompletableFuture<Void>> waiting = watches.remove(runId);
        if (waiting != null) {
            waiting.forEach(w -> w.complete(null));
        }
    }

    /** How many watches are open (each waiter that let go has dropped its own). */
    public int watching() {
        return watches.values().stream().mapToInt(Set::size).sum();
    }

    /** Drops a watch nobody waits for any more. */
    public void forget(String runId, CompletableFuture<Void> watch) {
        watches.computeIfPresent(runId, (id, set) -> {
            set.remove(watch);
            return set.isEmpty() ? null : set;
        });
    }
}
