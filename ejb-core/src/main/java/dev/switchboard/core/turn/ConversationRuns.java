package dev.switchboard.core.turn;

import dev.switchboard.core.execution.ExecutionPreparation;
import dev.switchboard.core.history.HistorySettings;
import dev.switchboard.core.history.StoredItem;
import dev.switchboard.core.history.ThreadContexts;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.lane.Claim;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Every run's engine reads its thread's conversation before it: the latest items inside the
 * thread's context window (what later preparations — a response's own conversation, a compaction's
 * transcript — may replace).
 */
@ApplicationScoped
public class ConversationRuns implements ExecutionPreparation {

    @Inject
    ThreadItems items;

    @Inject
    ThreadContexts contexts;

    @Inject
    HistorySettings history;

    @Override
    public int order() {
        return 100;
    }

    @Override
    public Prepared prepare(Claim claim, Prepared prepared) {
        long threadId = claim.threadId();
        return prepared.withInputs(prepared.inputs().withHistory(() -> items.recent(threadId, history.maxItems(),
                contexts.of(threadId)).stream().map(StoredItem::item).toList()));
    }
}
