package dev.switchboard.core.turn;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** How turns share a busy thread, from MicroProfile Config. */
@ApplicationScoped
public class TurnSettings {

    /** What a new turn does to a thread with active turns: followup, collect or interrupt. */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.followup-policy", defaultValue = "followup")
    String followupPolicy;

    /** Active turns a thread may hold (Holon's HOLON_SERVE_MAX_QUEUED_TURNS). */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.max-queued-turns", defaultValue = "8")
    int maxQueuedTurns;

    public TurnPolicy followupPolicy() {
        return TurnPolicy.parse(followupPolicy);
    }

    /** Invalid values (below 1) fall back to Holon's default, 8. */
    public int maxQueuedTurns() {
        return maxQueuedTurns >= 1 ? maxQueuedTurns : 8;
    }
}
