package dev.switchboard.core.ingress;

import dev.switchboard.core.clock.InstanceClock;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One repository's timer: what a firing ticks and when the next one is due. Whoever schedules it
 * (IngressScheduler, on its executor) fires it once at start-up with the current time and then at
 * each time it returns. A firing ticks for the bucket of its due time, or of the clock's time when
 * the firing is late — so a start after every instance was down, or an executor that fell behind,
 * gives one tick for the current bucket and never a burst of the missed ones; and a wake-up a little
 * early still ticks for the bucket it was meant for. A tick the pipeline refuses (the database down,
 * say) is logged and the next stays due: nothing ends a schedule.
 */
public final class TimerTicker {

    private static final Logger LOG = Logger.getLogger(TimerTicker.class.getName());

    private final TickSchedule schedule;
    private final String repo;
    private final InstanceClock clock;
    private final Supplier<String> eventIds;
    private final Consumer<EventEnvelope> pipeline;

    /** {@code pipeline} receives each tick as an event; {@code eventIds} names them. */
    public TimerTicker(TickSchedule schedule, String repo, InstanceClock clock, Supplier<String> eventIds,
            Consumer<EventEnvelope> pipeline) {
        this.schedule = schedule;
        this.repo = repo;
        this.clock = clock;
        this.eventIds = eventIds;
        this.pipeline = pipeline;
    }

    /** Ticks for the firing due at {@code due}; returns when the next one is due. */
    public Instant fire(Instant due) {
        Instant now = clock.now();
        Instant at = now.isBefore(due) ? due : now;
        try {
            pipeline.accept(TimerTicks.tick(eventIds.get(), repo, at, schedule.interval()));
        } catch (Throwable e) { // NOPMD: whatever happens, the next tick must stay scheduled
            LOG.log(Level.WARNING, "Timer tick for " + repo + " at " + at + " failed; the next one is still scheduled", e);
        }
        return schedule.nextTick(at);
    }
}
