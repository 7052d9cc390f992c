package dev.switchboard.core.lifecycle;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.notify.Outbox;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;

/**
 * Writes a running engine's progress ({@link RunProgress}) to the outbox, one transaction per
 * batch: text as {@code item/delta}, tool-loop steps as {@code item/created} with the step item as
 * content.
 */
@Stateless
public class RunProgressLedger {

    @Inject
    Outbox outbox;

    @Inject
    InstanceClock clock;

    /** The run whose progress is written. */
    public record Target(String userKey, String threadKey, String turnId, String runId, int attempt) {
    }

    public void write(Target run, List<RunProgress.Note> notes) {
        Instant now = clock.now();
        for (RunProgress.Note note : notes) {
            if (note.delta() != null) {
                outbox.append(run.userKey(), run.threadKey(), "item/delta",
                        Lifecycle.itemDelta(run.threadKey(), run.turnId(), run.runId(), run.attempt(), note.delta(), now));
            } else {
                String itemId = note.item().getString("id", TurnIds.itemId("item"));
                outbox.append(run.userKey(), run.threadKey(), "item/created",
                        Lifecycle.item(itemId, note.item(), "completed", run.threadKey(), run.turnId(), now));
            }
        }
    }
}
