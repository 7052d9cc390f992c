package dev.switchboard.core.ingress;

import dev.switchboard.core.runtime.ProcessedEvents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The runtime's count of processed events: the user's accepted events, as their store reads them. */
@ApplicationScoped
public class AcceptedEventCounts implements ProcessedEvents {

    @Inject
    IngressRecords records;

    @Override
    public Count of(String userKey) {
        return records.accepted(userKey);
    }
}
