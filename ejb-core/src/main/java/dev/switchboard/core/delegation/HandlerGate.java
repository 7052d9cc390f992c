package dev.switchboard.core.delegation;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.EngineFailure;
import dev.switchboard.core.engine.EngineRequest;
import jakarta.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The concurrency limits of agents' handlers on this instance (§3.11): at most {@code global}
 * executing at once, at most {@code perAgent} of one agent. A handler over a limit waits — no
 * thread held — and is let in first come, first served among those a free place admits; one whose
 * execution is cancelled while waiting leaves the queue. Plain Java.
 */
public final class HandlerGate {

    private final int global;
    private final int perAgent;
    private final Map<String, Integer> running = new HashMap<>();
    private final Deque<Waiter> waiting = new ArrayDeque<>();
    private int total;

    private record Waiter(String agent, CompletableFuture<Void> admitted) {
    }

    public HandlerGate(int global, int perAgent) {
        if (global < 1 || perAgent < 1) {
            throw new IllegalArgumentException("limits must be at least 1");
        }
        this.global = global;
        this.perAgent = perAgent;
    }

    /** {@code engine} for one agent's handlers, executing each only once the limits admit it. */
    public AgentEngine gate(AgentEngine engine, String agent) {
        return new AgentEngine() {
            @Override
            public String name() {
                return engine.name();
            }

            @Override
            public CompletionStage<JsonObject> execute(EngineRequest request) {
                CompletableFuture<Void> admitted = enter(agent);
                request.cancellation().onCancel(() -> {
                    if (admitted.cancel(false)) {
                        leaveQueue(admitted);
                    }
                });
                return admitted.handle((ok, error) -> error).thenCompose(error -> {
                    if (error != null) {
                        return CompletableFuture.<JsonObject>failedFuture(new EngineFailure("cancelled"));
                    }
                    CompletionStage<JsonObject> stage;
                    try {
                        stage = engine.execute(request);
                    } catch (RuntimeException e) {
                        leave(agent);
                        throw e;
                    }
                    return stage.whenComplete((output, failure) -> leave(agent));
                });
            }

            @Override
            public String defaultModel() {
                return engine.defaultModel();
            }
        };
    }

    /** Completes once {@code agent}'s handler may execute; the caller must {@link #leave} after. */
    synchronized CompletableFuture<Void> enter(String agent) {
        CompletableFuture<Void> admitted = new CompletableFuture<>();
        // Behind no earlier waiter of its own agent (first come, first served per agent); a waiter of
        // another agent still queued is held by its own agent's limit, not by a free place.
        if (admits(agent) && waiting.stream().noneMatch(w -> w.agent().equals(agent))) {
            take(agent);
            admitted.complete(null);
        } else {
            waiting.add(new Waiter(agent, admitted));
        }
        return admitted;
    }

    /** A handler of {@code agent} ended: the first waiters a free place admits go in. */
    void leave(String agent) {
        List<Waiter> go = new ArrayList<>();
        synchronized (this) {
            total--;
            running.merge(agent, -1, Integer::sum);
            Iterator<Waiter> it = waiting.iterator();
            while (it.hasNext() && total < global) {
                Waiter w = it.next();
                if (admits(w.agent())) {
                    it.remove();
                    take(w.agent());
                    go.add(w);
                }
            }
        }
        for (Waiter w : go) {
            if (!w.admitted().complete(null)) { // cancelled meanwhile: its place goes to the next
                leave(w.agent());
            }
        }
    }

    private synchronized void leaveQueue(CompletableFuture<Void> admitted) {
        waiting.removeIf(w -> w.admitted() == admitted);
    }

    /** How many handlers execute now, in all and of {@code agent}. */
    synchronized int running() {
        return total;
    }

    synchronized int running(String agent) {
        return running.getOrDefault(agent, 0);
    }

    synchronized int waiting() {
        return waiting.size();
    }

    private boolean admits(String agent) {
        return total < global && running.getOrDefault(agent, 0) < perAgent;
    }

    private void take(String agent) {
        total++;
        running.merge(agent, 1, Integer::sum);
    }
}
