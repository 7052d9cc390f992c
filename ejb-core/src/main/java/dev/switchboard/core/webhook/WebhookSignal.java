package dev.switchboard.core.webhook;

import dev.switchboard.core.clock.WakeUp;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Wakes this instance's dispatcher before its next poll: a message replayed, an endpoint enabled
 * again (raised once that has committed), a sender come free.
 */
@ApplicationScoped
public class WebhookSignal extends WakeUp {
}
