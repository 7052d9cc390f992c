package dev.switchboard.core.run;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The threads that wake clients waiting for a run ({@code /wait}, a non-streamed response): their
 * re-check timers and the re-read when a run changed. Threads of their own, made with the
 * container's context, not the server's shared pool: a waiting request holds no thread, and what
 * wakes it must never queue behind requests that may themselves be waiting — on a cold instance
 * with few pool threads, that queue never drained. Each task is a timer or one short read.
 */
@ApplicationScoped
public class Waiters {

    /** Two: a re-read waiting for a database connection must not hold up every other wake-up. */
    static final int THREADS = 2;

    @Resource
    ManagedThreadFactory threadFactory;

    private ScheduledExecutorService executor;

    @PostConstruct
    void start() {
        executor = Executors.newScheduledThreadPool(THREADS, threadFactory);
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    public ScheduledExecutorService executor() {
        return executor;
    }
}
