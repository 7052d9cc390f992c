package dev.switchboard.core.clock;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * This instance's wall clock, for what the instance stamps itself (turn times, notification
 * times, ingress journal times, timer buckets). Leases and run times never use it: they are read
 * from the database's clock (see {@code LaneHead}), so instances whose clocks disagree cannot take
 * each other's live leases. {@code switchboard.clock.offset-ms} shifts it — a test hook that makes
 * an instance behave as if its operating system clock were off; leave it at 0 in production.
 */
@ApplicationScoped
public class InstanceClock {

    @Inject
    @ConfigProperty(name = "switchboard.clock.offset-ms", defaultValue = "0")
    long offsetMs;

    private Clock clock;

    @PostConstruct
    void build() {
        clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(offsetMs));
    }

    /** The clock built outside the container (tests, tools): {@code clock} as it is, a settable one for instance. */
    public static InstanceClock of(Clock clock) {
        InstanceClock built = new InstanceClock();
        built.clock = clock;
        return built;
    }

    public Clock clock() {
        return clock;
    }

    public long millis() {
        return clock.millis();
    }

    public Instant now() {
        return clock.instant();
    }

    /**
     * Monotonic time in nanoseconds, for deadlines measured here: it is not shifted and does not
     * jump with the wall clock (it keeps counting while the process is stopped).
     */
    public long nanoTime() {
        return System.nanoTime();
    }
}
