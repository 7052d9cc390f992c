package dev.switchboard.core.run;

import dev.switchboard.persistence.run.RunKind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * How much a thread holds waiting, by the door work comes through — the one place a thread's queue
 * caps are set (docs/operations.md, "Queue caps"). A full queue refuses the new work at once with
 * {@code queue_full}; nothing already acknowledged is dropped.
 *
 * <ul>
 * <li>{@code POST /v1/messages} (and its batch) and {@code POST /v1/responses}: at most
 * {@link #maxQueuedRuns()} unfinished runs on the thread, from any door, when the new one
 * arrives.</li>
 * <li>{@code turn/start}: at most {@link #maxQueuedTurns()} active turns (Holon's limit).</li>
 * <li>A chat message: at most {@link #maxQueuedChatMessages()} chat messages waiting for the running
 * turn.</li>
 * <li>Events from ingress are not refused here: each is journalled before its run (a refusal would
 * lose a webhook its sender never sends again); their senders are authenticated and their resends
 * deduplicated. The server's own runs — a compaction, a resumed tool call, a delegated call — are
 * bounded by what starts them (one compaction at a time, one resumption per paused call, the
 * delegation limits).</li>
 * </ul>
 */
@ApplicationScoped
public class QueueCaps {

    static final int DEFAULT_TURNS = 8;
    static final int DEFAULT_CHAT_MESSAGES = 10;
    static final int DEFAULT_RUNS = 1000;

    @Inject
    @ConfigProperty(name = "switchboard.lanes.max-queued-turns", defaultValue = "8")
    int maxQueuedTurns;

    @Inject
    @ConfigProperty(name = "switchboard.lanes.max-queued-runs", defaultValue = "1000")
    int maxQueuedRuns;

    @Inject
    @ConfigProperty(name = "switchboard.chat.max-queued-messages", defaultValue = "10")
    int maxQueuedChatMessages;

    /** Active turns a thread may hold for {@code turn/start}; values below 1 fall back to 8. */
    public int maxQueuedTurns() {
        return maxQueuedTurns >= 1 ? maxQueuedTurns : DEFAULT_TURNS;
    }

    /** Unfinished runs a thread may hold when a client's message or response arrives; values below 1 fall back to 1000. */
    public int maxQueuedRuns() {
        return maxQueuedRuns >= 1 ? maxQueuedRuns : DEFAULT_RUNS;
    }

    /** Chat messages that may wait for a thread's running turn; values below 1 fall back to 10. */
    public int maxQueuedChatMessages() {
        return maxQueuedChatMessages >= 1 ? maxQueuedChatMessages : DEFAULT_CHAT_MESSAGES;
    }

    /** The cap on unfinished runs a run of {@code kind} ingested through the runs API meets ({@link Integer#MAX_VALUE}: none). */
    public int runsFor(RunKind kind) {
        return runsFor(kind, maxQueuedRuns());
    }

    static int runsFor(RunKind kind, int maxQueuedRuns) {
        return kind == RunKind.MESSAGE || kind == RunKind.RESPONSE ? maxQueuedRuns : Integer.MAX_VALUE;
    }

    /**
     * Whether a lane that has had {@code runsEver} runs in all could hold {@code cap} unfinished
     * ones: only then are they counted, so a thread's first {@code cap} messages cost no statement.
     */
    public static boolean mayBeFull(long runsEver, int cap) {
        return cap < Integer.MAX_VALUE && runsEver >= cap;
    }
}
