package dev.switchboard.core.notify;

import dev.switchboard.core.clock.WakeUp;
import jakarta.enterprise.context.ApplicationScoped;

/** Wakes the notification pump when a transaction that wrote to the outbox has committed. */
@ApplicationScoped
public class OutboxSignal extends WakeUp {
}
