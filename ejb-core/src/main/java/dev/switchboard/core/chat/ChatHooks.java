package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.InboundHooks;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the {@code beforeInbound} hooks on a person's input ({@link InboundHooks}): every CDI bean
 * implementing {@link InboundHooks.Hook} in the application — the built-in {@link InboundPolicy},
 * and any a deployment adds — on a bounded executor of their own.
 */
@ApplicationScoped
public class ChatHooks {

    private static final Logger LOG = Logger.getLogger(ChatHooks.class.getName());

    @Inject
    @Any
    Instance<InboundHooks.Hook> hooks;

    /** Hooks running at once; more wait, up to {@link #QUEUE}; beyond that a hook counts as failed. */
    static final int THREADS = 4;
    static final int QUEUE = 64;

    @Resource
    ManagedThreadFactory threadFactory;

    /**
     * Hooks run on threads of their own, not the server's shared pool: the request waiting for a
     * hook's verdict holds a pool thread, and must never wait for a task queued behind requests.
     */
    private ExecutorService executor;

    @PostConstruct
    void start() {
        executor = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                threadFactory);
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    public InboundHooks.Outcome beforeInbound(String userId, String channel, String content) {
        List<InboundHooks.Hook> all = hooks.stream().toList();
        return InboundHooks.run(all, userId, channel, content, InboundHooks.DEFAULT_TIMEOUT, executor,
                (hook, error) -> LOG.log(Level.WARNING, "The beforeInbound hook " + hook.name() + " failed ("
                        + (hook.failClosed() ? "fail-closed: the message is blocked" : "fail-open: skipped") + "): "
                        + error));
    }
}
