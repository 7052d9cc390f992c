package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttemptEndTest {

    private final RetrySchedule twoWaits = new RetrySchedule(List.of(Duration.ofSeconds(5), Duration.ofMinutes(5)), 0, () -> 0.5);

    @Test
    void aDeliveredAttemptDeliversTheMessageWhateverItsNumber() {
        assertEquals(new AttemptEnd("delivered", null, "delivered"), AttemptEnd.of("delivered", 3, twoWaits));
    }

    @Test
    void aFailedAttemptWaitsTheSchedulesNextDelay() {
        assertEquals(new AttemptEnd("pending", Duration.ofSeconds(5), "retry"), AttemptEnd.of("retry", 1, twoWaits));
        assertEquals(new AttemptEnd("pending", Duration.ofMinutes(5), "refused"), AttemptEnd.of("refused", 2, twoWaits));
    }

    @Test
    void theLastAttemptsFailureFailsTheMessageAndIsLoggedAsSuch() {
        assertEquals(new AttemptEnd("failed", null, "failed"), AttemptEnd.of("retry", 3, twoWaits));
        assertEquals(new AttemptEnd("failed", null, "refused"), AttemptEnd.of("refused", 3, twoWaits),
                "a refusal stays a refusal in the log");
    }
}
