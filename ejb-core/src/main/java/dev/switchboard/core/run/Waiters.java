package dev.switchboard.core.run;

import dev.switchboard.core.input.ServerBusy;
import dev.switchboard.core.lane.RunWatch;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The clients waiting for a run ({@code /wait}, a non-streamed response) and the threads that wake
 * them ({@link RunWaits}): their deadline timers, the sweep for runs that ended elsewhere, and the
 * one read each waiter's answer takes. Threads of their own, made with the container's context, not
 * the server's shared pool: a waiting request holds no thread, and what wakes it must never queue
 * behind requests that may themselves be waiting — on a cold instance with few pool threads, that
 * queue never drained. At most {@code SWITCHBOARD_RUNS_MAX_WAITING} clients wait at once (each
 * costs a timer and a little memory); one more is refused at once ({@link ServerBusy}).
 */
@ApplicationScoped
public class Waiters {

    /** Two: a re-read waiting for a database connection must not hold up every other wake-up. */
    static final int THREADS = 2;

    @Resource
    ManagedThreadFactory threadFactory;

    @Inject
    @ConfigProperty(name = "switchboard.runs.max-waiting", defaultValue = "10000")
    int maxWaiting;

    private final AtomicInteger waiting = new AtomicInteger();

    @EJB
    RunLedger ledger;

    @Inject
    RunWatch watch;

    private ScheduledExecutorService executor;
    private RunWaits runs;

    @PostConstruct
    void start() {
        executor = Executors.newScheduledThreadPool(THREADS, threadFactory);
        runs = new RunWaits(new RunWaits.Store() {
            @Override
            public Optional<RunView> find(String userKey, String runId) {
                return ledger.find(userKey, runId);
            }

            @Override
            public Set<String> ended(Collection<String> runIds) {
                return ledger.ended(runIds);
            }
        }, watch, executor);
    }

    /** The waits. */
    RunWaits runs() {
        return runs;
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    /**
     * Counts a client in until {@code done} completes.
     *
     * @throws ServerBusy when {@link #maxWaiting} clients wait already
     */
    public void admit(CompletionStage<?> done) {
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            throw new ServerBusy(maxWaiting + " clients are waiting for runs on this instance; retry shortly", 1);
        }
        done.whenComplete((r, e) -> waiting.decrementAndGet());
    }
}
