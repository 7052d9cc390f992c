package dev.switchboard.core.history;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** How much of a thread's history an engine call receives. */
@ApplicationScoped
public class HistorySettings {

    @Inject
    @ConfigProperty(name = "switchboard.history.max-items", defaultValue = "100")
    int maxItems;

    @PostConstruct
    void validate() {
        if (maxItems < 0 || maxItems > 10_000) {
            throw new IllegalArgumentException("switchboard.history.max-items must be between 0 and 10000, was "
                    + maxItems);
        }
    }

    /** The most recent items of its thread an engine call receives (0: none). */
    public int maxItems() {
        return maxItems;
    }
}
