package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {

    @Test
    void theDefaultSpansALittleOverADayInEightAttempts() {
        RetrySchedule schedule = new RetrySchedule(RetrySchedule.parse(RetrySchedule.DEFAULT), 0, () -> 0.5);
        assertEquals(8, schedule.attempts());
        Duration total = Duration.ZERO;
        for (int attempt = 1; attempt < schedule.attempts(); attempt++) {
            total = total.plus(schedule.after(attempt));
        }
        assertEquals(Duration.ofSeconds(5).plusMinutes(35).plusHours(27), total);
        assertNull(schedule.after(8), "after the last attempt the message has failed");
    }

    @Test
    void jitterStretchesOrShrinksEachWaitByUpToItsFraction() {
        List<Duration> fiveMinutes = List.of(Duration.ofMinutes(5));
        assertEquals(Duration.ofMinutes(4), new RetrySchedule(fiveMinutes, 0.2, () -> 0.0).after(1));
        assertEquals(Duration.ofMinutes(6), new RetrySchedule(fiveMinutes, 0.2, () -> 1.0).after(1));
        Duration some = new RetrySchedule(fiveMinutes, 0.2, Math::random).after(1);
        assertTrue(some.compareTo(Duration.ofMinutes(4)) >= 0 && some.compareTo(Duration.ofMinutes(6)) <= 0, some.toString());
    }

    @Test
    void parsesUnitsAndRefusesWhatIsNoDelay() {
        assertEquals(List.of(Duration.ofMillis(250), Duration.ofSeconds(2), Duration.ofMinutes(3), Duration.ofHours(4)),
                RetrySchedule.parse("250ms, 2s,3m ,4h"));
        assertThrows(IllegalArgumentException.class, () -> RetrySchedule.parse("5x"));
        assertThrows(IllegalArgumentException.class, () -> RetrySchedule.parse("-5s"));
        assertThrows(IllegalArgumentException.class, () -> RetrySchedule.parse("soon"));
    }
}
