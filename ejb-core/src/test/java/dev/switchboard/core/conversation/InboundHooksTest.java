package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Spec §2.6's chain: order, replacement by name, modify, reject, fail-open and fail-closed, timeout. */
class InboundHooksTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<String> failed = new ArrayList<>();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private record TestHook(String name, int priority, boolean failClosed, Behaviour behaviour) implements InboundHooks.Hook {
        @Override
        public InboundHooks.Verdict beforeInbound(String userId, String channel, String content) throws Exception {
            return behaviour.apply(content);
        }
    }

    private interface Behaviour {
        InboundHooks.Verdict apply(String content) throws Exception;
    }

    private InboundHooks.Outcome run(List<InboundHooks.Hook> hooks, String content) {
        return InboundHooks.run(hooks, "u", "web", content, Duration.ofMillis(500), executor,
                (hook, error) -> failed.add(hook.name()));
    }

    @Test
    void hooksRunByPriorityAndEachSeesTheChangesBeforeIt() {
        List<InboundHooks.Hook> hooks = List.of(
                new TestHook("b", 200, false, c -> new InboundHooks.Modify(c + " b")),
                new TestHook("a", 50, false, c -> new InboundHooks.Modify(c + " a")),
                new TestHook("c", 200, false, c -> new InboundHooks.Pass()));
        assertEquals(new InboundHooks.Continue("x a b"), run(hooks, "x"));
    }

    @Test
    void anInactiveHookIsNotCalled() {
        InboundHooks.Hook off = new InboundHooks.Hook() {
            @Override
            public String name() {
                return "off";
            }

            @Override
            public boolean active() {
                return false;
            }

            @Override
            public InboundHooks.Verdict beforeInbound(String userId, String channel, String content) {
                return new InboundHooks.Reject("called");
            }
        };
        assertEquals(new InboundHooks.Continue("x"), run(List.of(off), "x"));
    }

    @Test
    void aLaterHookOfTheSameNameReplacesTheEarlierOne() {
        List<InboundHooks.Hook> hooks = List.of(
                new TestHook("h", 100, false, c -> new InboundHooks.Reject("old")),
                new TestHook("h", 100, false, c -> new InboundHooks.Modify("new")));
        assertEquals(new InboundHooks.Continue("new"), run(hooks, "x"));
    }

    @Test
    void aRejectionStopsTheChain() {
        List<String> seen = new ArrayList<>();
        List<InboundHooks.Hook> hooks = List.of(
                new TestHook("first", 1, false, c -> new InboundHooks.Reject("not here")),
                new TestHook("second", 2, false, c -> {
                    seen.add(c);
                    return new InboundHooks.Pass();
                }));
        assertEquals(new InboundHooks.Stopped("[Message rejected: not here]"), run(hooks, "x"));
        assertEquals(List.of(), seen);
    }

    @Test
    void aFailingHookIsSkippedUnlessItIsFailClosed() {
        InboundHooks.Hook broken = new TestHook("broken", 1, false, c -> {
            throw new IllegalStateException("boom");
        });
        InboundHooks.Hook after = new TestHook("after", 2, false, c -> new InboundHooks.Modify(c + "!"));
        assertEquals(new InboundHooks.Continue("x!"), run(List.of(broken, after), "x"));
        assertEquals(List.of("broken"), failed);
        InboundHooks.Hook strict = new TestHook("strict", 1, true, c -> {
            throw new IllegalStateException("boom");
        });
        assertEquals(new InboundHooks.Stopped("[Message blocked by hook policy: strict failed]"), run(List.of(strict, after), "x"));
    }

    @Test
    void aHookThatTakesTooLongTimesOut() {
        CountDownLatch never = new CountDownLatch(1);
        InboundHooks.Hook slow = new TestHook("slow", 1, false, c -> {
            never.await();
            return new InboundHooks.Reject("too late");
        });
        assertEquals(new InboundHooks.Continue("x"), run(List.of(slow), "x"), "fail-open: the message goes on");
        InboundHooks.Hook slowStrict = new TestHook("slow-strict", 1, true, c -> {
            never.await();
            return new InboundHooks.Pass();
        });
        assertEquals(new InboundHooks.Stopped("[Message blocked by hook policy: slow-strict timed out]"),
                run(List.of(slowStrict), "x"));
        assertEquals(List.of("slow", "slow-strict"), failed);
    }

    @Test
    void aHookThatCannotBeScheduledCountsAsFailed() {
        java.util.concurrent.Executor full = task -> {
            throw new java.util.concurrent.RejectedExecutionException("no room");
        };
        InboundHooks.Hook open = new TestHook("open", 1, false, c -> new InboundHooks.Reject("never asked"));
        InboundHooks.Hook strict = new TestHook("strict", 1, true, c -> new InboundHooks.Pass());
        assertEquals(new InboundHooks.Continue("x"), InboundHooks.run(List.of(open), "u", "web", "x", Duration.ofMillis(500),
                full, (hook, error) -> failed.add(hook.name())), "fail-open: the message goes on");
        assertEquals(new InboundHooks.Stopped("[Message blocked by hook policy: strict could not run (hooks busy)]"),
                InboundHooks.run(List.of(strict), "u", "web", "x", Duration.ofMillis(500), full,
                        (hook, error) -> failed.add(hook.name())));
        assertEquals(List.of("open", "strict"), failed);
    }
}
