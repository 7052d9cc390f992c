package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.conversation.UndoLine;
import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.core.execution.StoredRuns.StoredRun;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.history.ThreadContexts;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.lifecycle.TurnEndings;
import dev.switchboard.core.lifecycle.TurnEnded;
import dev.switchboard.core.thread.ThreadDirectory;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.core.thread.WorkspaceCommits;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunState;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Takes a chat thread's undo checkpoints (spec §10): when one of its turns ends having added to
 * the thread's history, the context window as it was before that turn's first item becomes the
 * checkpoint "Before turn N" — in the transaction that ended the turn, under its lane's lock, so
 * checkpoints follow the turns' order exactly. A turn that added nothing (interrupted before its
 * engine answered, merged into a later one) leaves nothing to undo. Threads that are not chat
 * threads cost nothing: their keys are not UUIDs, or no chat thread has the key.
 */
@ApplicationScoped
public class ChatCheckpoints implements WorkspaceCommits, TurnEndings {

    @Inject
    ChatRecords records;

    @Inject
    ThreadDirectory directory;

    @Inject
    ThreadItems items;

    @Inject
    ThreadContexts contexts;

    @EJB
    ThreadWorkspaces workspaces;

    @Inject
    StoredRuns runs;

    @Override
    public int order() {
        return 300;
    }

    @Override
    public void turnEnded(TurnEnded turn) {
        Optional<UUID> chatThread = turn.threadKey() == null ? Optional.empty() : Submissions.uuid(turn.threadKey());
        if (chatThread.isEmpty() || turn.firstRunKind() == RunKind.COMPACTION) {
            return; // a compaction's summary keeps its own checkpoint (ChatCompactions)
        }
        Optional<ChatRecords.ThreadRow> row = records.thread(turn.userKey(), chatThread.get());
        Optional<Long> threadId = row.flatMap(t -> directory.find(turn.userKey(), turn.threadKey()));
        if (threadId.isEmpty()) {
            return;
        }
        Optional<Long> first = items.firstOf(threadId.get(), turn.turnId());
        if (first.isEmpty()) {
            return;
        }
        ContextWindow before = contexts.of(threadId.get()).closedAt(first.get() - 1);
        checkpoint(turn.userKey(), chatThread.get(), threadId.get(), new ChatState(before,
                workspaces.before(threadId.get(), succeededOutputs(turn.turnId())).orElse(null)), "Before turn ");
    }

    /** What the turn's succeeded runs answered, in lane order. */
    private List<String> succeededOutputs(String turnId) {
        return runs.ofTurn(turnId).stream().filter(r -> r.state() == RunState.SUCCEEDED).map(StoredRun::outputJson).toList();
    }

    /** The workspace commits the thread's undo and redo checkpoints go back and forth to: pruning keeps them. */
    @Override
    public java.util.Set<String> named(long threadId) {
        String undo = directory.keyOf(threadId).flatMap(k -> Submissions.uuid(k.threadKey())
                .map(chatThread -> records.undo(k.userKey(), chatThread))).orElse(null);
        if (undo == null) {
            return java.util.Set.of();
        }
        UndoLine<ChatState> line = ChatUndo.read(undo);
        return java.util.stream.Stream.concat(line.undoStack().stream(), line.redoStack().stream())
                .map(c -> c.state().workspace()).filter(w -> w != null && !w.isEmpty())
                .collect(java.util.stream.Collectors.toSet());
    }

    /** Saves {@code before}, the state before turn N, as the thread's newest checkpoint ({@code label} + N). */
    void checkpoint(String userKey, UUID chatThread, long threadId, ChatState before, String label) {
        int number = items.runsIn(threadId, before.context()) + 1;
        UndoLine<ChatState> line = ChatUndo.read(records.undo(userKey, chatThread));
        line.checkpoint(number, before, label + number);
        records.writeUndo(userKey, chatThread, ChatUndo.write(line));
    }
}
