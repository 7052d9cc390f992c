package dev.switchboard.core.lifecycle;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.history.RunTexts;
import dev.switchboard.core.notify.Outbox;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes a running engine's progress ({@link RunProgress}) to the outbox, one transaction per
 * batch: text as {@code item/delta} — kept in {@code run_text} too, numbered, so a follower can
 * catch up with what it missed ({@link RunTexts}) — and tool-loop steps as {@code item/created}
 * with the step item as content. An execution that no longer owns its run writes no text.
 */
@Stateless
public class RunProgressLedger {

    @Inject
    Outbox outbox;

    @Inject
    InstanceClock clock;

    @Inject
    RunTexts texts;

    /** The run whose progress is written. */
    public record Target(String userKey, String threadKey, String turnId, String runId, int attempt) {
    }

    /** @param parts numbers the execution's text parts (a batch that rolls back leaves its numbers unused) */
    public void write(Target run, List<RunProgress.Note> notes, AtomicInteger parts) {
        Instant now = clock.now();
        for (RunProgress.Note note : notes) {
            if (note.delta() != null) {
                int part = parts.getAndIncrement();
                if (texts.append(run.runId(), run.attempt(), part, note.delta())) {
                    outbox.append(run.userKey(), run.threadKey(), "item/delta", Lifecycle.itemDelta(run.threadKey(),
                            run.turnId(), run.runId(), run.attempt(), part, note.delta(), now));
                }
            } else {
                String itemId = note.item().getString("id", TurnIds.itemId("item"));
                outbox.append(run.userKey(), run.threadKey(), "item/created",
                        Lifecycle.item(itemId, note.item(), "completed", run.threadKey(), run.turnId(), now));
            }
        }
    }
}
