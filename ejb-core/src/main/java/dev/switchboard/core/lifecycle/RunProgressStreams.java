package dev.switchboard.core.lifecycle;

import dev.switchboard.core.notify.NotifySettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/** Opens the {@link RunProgress} of an execution, written through {@link RunProgressLedger}. */
@ApplicationScoped
public class RunProgressStreams {

    @Inject
    RunProgressLedger ledger;

    @Inject
    NotifySettings settings;

    /** @param flusher the thread(s) that write the batches, never the engine's */
    public RunProgress open(RunProgressLedger.Target run, ScheduledExecutorService flusher) {
        AtomicInteger parts = new AtomicInteger();
        return new RunProgress(settings.deltaIntervalMs(), flusher, notes -> ledger.write(run, notes, parts));
    }
}
