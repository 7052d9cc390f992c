package dev.switchboard.core.conversation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * The {@code beforeInbound} hook chain (spec §2.6, §6 step 2): each hook sees a person's input
 * before it becomes a turn and passes it, changes it (the next hook sees the change) or rejects it
 * (the chain stops). Hooks run in priority order (lower first, default 100; a later hook of the
 * same name replaces an earlier one), each within a timeout (default 5 s). A hook that fails or
 * times out is logged and skipped (fail-open) unless it is fail-closed, which blocks the message.
 * An auth token never reaches a hook: auth mode takes it first (decision I7).
 */
public final class InboundHooks {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    public static final int DEFAULT_PRIORITY = 100;

    /** One hook. {@link #beforeInbound} may throw; what it throws is its failure. */
    public interface Hook {
        String name();

        default int priority() {
            return DEFAULT_PRIORITY;
        }

        default boolean failClosed() {
            return false;
        }

        /** An inactive hook (nothing configured) is skipped without being called. */
        default boolean active() {
            return true;
        }

        Verdict beforeInbound(String userId, String channel, String content) throws Exception;
    }

    /** What a hook says of the input. */
    public sealed interface Verdict {
    }

    public record Pass() implements Verdict {
    }

    public record Modify(String content) implements Verdict {
    }

    public record Reject(String reason) implements Verdict {
    }

    /** What the chain says: go on with {@code content}, or answer {@code reply} and make no turn. */
    public sealed interface Outcome {
    }

    public record Continue(String content) implements Outcome {
    }

    public record Stopped(String reply) implements Outcome {
    }

    private InboundHooks() {
    }

    /** The hooks in the order they run: by priority, then name; the last registered of a name wins. */
    public static List<Hook> ordered(List<Hook> hooks) {
        Map<String, Hook> byName = new LinkedHashMap<>();
        hooks.forEach(h -> byName.put(h.name(), h));
        List<Hook> ordered = new ArrayList<>(byName.values());
        ordered.sort(Comparator.comparingInt(Hook::priority).thenComparing(Hook::name));
        return ordered;
    }

    /**
     * Runs the chain on {@code content}, each hook on {@code executor} within {@code timeout}.
     *
     * @param failures told of each hook that failed or timed out (fail-open or not)
     */
    public static Outcome run(List<Hook> hooks, String userId, String channel, String content, Duration timeout,
            Executor executor, BiConsumer<Hook, Throwable> failures) {
        String current = content;
        for (Hook hook : ordered(hooks)) {
            if (!hook.active()) {
                continue;
            }
            String seen = current;
            Verdict verdict;
            try {
                verdict = CompletableFuture.supplyAsync(() -> {
                    try {
                        return hook.beforeInbound(userId, channel, seen);
                    } catch (Exception e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                }, executor).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Stopped("[Message blocked by hook policy: interrupted]");
            } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                if (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                    cause = cause.getCause();
                }
                failures.accept(hook, cause);
                if (hook.failClosed()) {
                    return new Stopped("[Message blocked by hook policy: " + hook.name() + " "
                            + (cause instanceof TimeoutException ? "timed out"
                                    : cause instanceof RejectedExecutionException ? "could not run (hooks busy)" : "failed") + "]");
                }
                continue;
            }
            if (verdict instanceof Reject reject) {
                return new Stopped("[Message rejected: " + reject.reason() + "]");
            }
            if (verdict instanceof Modify modify) {
                current = modify.content();
            }
        }
        return new Continue(current);
    }
}
