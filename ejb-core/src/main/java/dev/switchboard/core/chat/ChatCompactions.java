package dev.switchboard.core.chat;

import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.history.StoredItem;
import dev.switchboard.core.history.ThreadContexts;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.lifecycle.TurnEndings;
import dev.switchboard.core.lifecycle.TurnEnded;
import dev.switchboard.core.thread.ThreadDirectory;
import dev.switchboard.core.thread.ThreadWorkspaces;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Applies a summarising compaction when its turn ends, in the transaction that ends it (under the
 * lane's lock, before the thread's next turn is claimed): the context keeps the newest
 * {@link ChatCompaction#KEEP_RECENT} turns with the summary before them (decision I10); the
 * summary turn's own items (the transcript it was given, its answer) are never part of the
 * context, and the context before it is the thread's newest undo checkpoint. A summary that failed
 * changes nothing else: no turn is lost.
 */
@ApplicationScoped
public class ChatCompactions implements TurnEndings {

    @Inject
    ThreadDirectory directory;

    @Inject
    ThreadItems items;

    @Inject
    ThreadContexts contexts;

    @Inject
    StoredRuns storedRuns;

    @Inject
    ChatCheckpoints checkpoints;

    @EJB
    ThreadWorkspaces workspaces;

    @Override
    public int order() {
        return 200;
    }

    @Override
    public void turnEnded(TurnEnded turn) {
        if (turn.firstRunKind() != RunKind.COMPACTION || turn.threadKey() == null) {
            return;
        }
        Optional<Long> threadId = directory.find(turn.userKey(), turn.threadKey());
        if (threadId.isEmpty()) {
            return;
        }
        long id = threadId.get();
        ContextWindow window = contexts.of(id);
        long last = items.lastSeq(id);
        Optional<Long> own = items.firstOf(id, turn.turnId());
        ContextWindow without = own.map(first -> window.closedAt(first - 1).openFrom(last + 1)).orElse(window);
        String summary = turn.isCompleted()
                ? storedRuns.outputOf(turn.firstRunId()).map(Lifecycle::replyText).orElse(null) : null;
        if (summary == null || summary.isBlank()) {
            contexts.write(id, without, System.currentTimeMillis());
            return;
        }
        Submissions.uuid(turn.threadKey()).ifPresent(chat -> checkpoints.checkpoint(turn.userKey(), chat, id,
                new ChatState(without.closedAt(last), workspaces.head(id).orElse(null)),
                "Before compaction at turn ")); // /undo brings the turns back
        List<List<StoredItem>> runs = items.itemsByRun(id, without);
        Set<Long> kept = runs.subList(Math.max(0, runs.size() - ChatCompaction.KEEP_RECENT), runs.size()).stream()
                .flatMap(List::stream).map(StoredItem::seq).collect(Collectors.toSet());
        contexts.write(id, without.keeping(kept, last).withHead(ChatCompaction.head(summary)), System.currentTimeMillis());
    }
}
