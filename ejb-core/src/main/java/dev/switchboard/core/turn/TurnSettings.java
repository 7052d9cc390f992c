package dev.switchboard.core.turn;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** How turns share a busy thread, from MicroProfile Config (how many may wait: {@link dev.switchboard.core.run.QueueCaps}). */
@ApplicationScoped
public class TurnSettings {

    /** What a new turn does to a thread with active turns: followup, collect or interrupt. */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.followup-policy", defaultValue = "followup")
    String followupPolicy;

    public TurnPolicy followupPolicy() {
        return TurnPolicy.parse(followupPolicy);
    }
}
