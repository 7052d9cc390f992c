package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.ContextMonitor;
import dev.switchboard.core.conversation.UndoLine;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.history.StoredItem;
import dev.switchboard.core.history.ThreadContexts;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.thread.ThreadDirectory;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.thread.TurnRows;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import jakarta.json.JsonObject;
import java.util.UUID;

/**
 * What a chat thread's engine is given, changed by a person's commands, each under the thread's
 * lane lock and refused while a turn is active (its result would land in a context that no longer
 * exists): {@code /undo}, {@code /redo}, {@code /clear}, {@code /resume} (spec §10) and the
 * compaction's plan (spec §11). The stored history stays whole; only the context window moves.
 * One transaction per call.
 */
@Stateless
public class ChatContextLedger {

    static final String NOTHING_TO_UNDO = "Nothing to undo.";
    static final String NOTHING_TO_REDO = "Nothing to redo.";
    static final String CLEARED = "Thread cleared.";
    static final String BUSY = "A turn is running on this thread. Use /interrupt first.";

    @Inject
    ChatRecords records;

    @Inject
    ThreadDirectory directory;

    @EJB
    ThreadWorkspaces workspaces;

    @Inject
    Lanes lanes;

    @Inject
    TurnRows turns;

    @Inject
    ThreadItems items;

    @Inject
    ThreadContexts contexts;

    @Inject
    ChatApprovalLedger approvals;

    @Inject
    ChatSettings settings;

    /** The commands that change what a thread's engine is given. */
    public enum ContextEdit {
        UNDO, REDO, CLEAR, RESUME
    }

    static final String NO_CHECKPOINT = "Checkpoint not found.";

    /**
     * {@code /undo}, {@code /redo}, {@code /clear} (spec §10): the thread's context window goes
     * back to a checkpoint, forward again, or empty; the stored history stays whole. Under the
     * thread's lane lock, refused while a turn is active (its result would land in a context
     * that no longer exists).
     *
     * @return the spec's answer
     * @throws ChatRejectedException {@code BUSY} while the thread has an active turn
     */
    public String edit(String userKey, UUID chatThread, ContextEdit edit, long now) {
        return edit(userKey, chatThread, edit, null, now);
    }

    /**
     * As {@link #edit(String, UUID, ContextEdit, long)}; {@code checkpoint}: the one {@code /resume}
     * goes back to (spec §10: it and every newer one leave the undo line, the current context
     * becomes the only redo).
     *
     * @throws ChatRejectedException {@code CHECKPOINT_NOT_FOUND} for a checkpoint not on the undo line
     */
    public String edit(String userKey, UUID chatThread, ContextEdit edit, UUID checkpoint, long now) {
        Optional<Long> found = directory.find(userKey, chatThread.toString());
        UndoLine<ChatState> line = ChatUndo.read(records.undo(userKey, chatThread));
        if (found.isEmpty()) { // no turn yet: nothing to go back or forward to
            if (edit == ContextEdit.RESUME) {
                throw new ChatRejectedException(ChatRejectedException.Reason.CHECKPOINT_NOT_FOUND, NO_CHECKPOINT);
            }
            return edit == ContextEdit.UNDO ? NOTHING_TO_UNDO : edit == ContextEdit.REDO ? NOTHING_TO_REDO : CLEARED;
        }
        long threadId = found.get();
        lanes.lock(threadId);
        if (turns.anyActive(threadId)) {
            throw new ChatRejectedException(ChatRejectedException.Reason.BUSY, BUSY);
        }
        long last = items.lastSeq(threadId);
        ContextWindow currentContext = contexts.of(threadId).closedAt(last);
        ChatState current = new ChatState(currentContext, workspaces.head(threadId).orElse(null));
        int currentTurn = items.runsIn(threadId, currentContext) + 1;
        String answer;
        ContextWindow next;
        String workspace = null; // where the workspace line goes (null: it stays)
        if (edit == ContextEdit.CLEAR) {
            line.clear();
            next = new ContextWindow(List.of(), last + 1);
            answer = CLEARED;
        } else if (edit == ContextEdit.RESUME) {
            UndoLine.Checkpoint<ChatState> to = line.restore(checkpoint, currentTurn, current)
                    .orElseThrow(() -> new ChatRejectedException(ChatRejectedException.Reason.CHECKPOINT_NOT_FOUND,
                            NO_CHECKPOINT));
            next = to.state().context().openFrom(last + 1);
            workspace = to.state().workspace();
            answer = "Resumed from checkpoint: " + to.description();
        } else {
            Optional<UndoLine.Checkpoint<ChatState>> to = edit == ContextEdit.UNDO
                    ? line.undo(currentTurn, current) : line.redo(currentTurn, current);
            if (to.isEmpty()) {
                return edit == ContextEdit.UNDO ? NOTHING_TO_UNDO : NOTHING_TO_REDO;
            }
            next = to.get().state().context().openFrom(last + 1);
            workspace = to.get().state().workspace();
            answer = edit == ContextEdit.UNDO
                    ? "Undone to turn " + to.get().turnNumber() + ". " + line.undoCount() + " undo(s) remaining."
                    : "Redone to turn " + to.get().turnNumber() + ".";
        }
        contexts.write(threadId, next, now);
        if (workspace != null && current.workspace() != null) { // the files go back and forth with the conversation
            workspaces.move(threadId, workspace);
        }
        records.writeUndo(userKey, chatThread, ChatUndo.write(line));
        approvals.drop(userKey, chatThread, edit.name().toLowerCase(java.util.Locale.ROOT));
        return answer;
    }

    /**
     * What {@code /compact} does: an answer now (nothing to do, or the newest turns kept and the
     * rest left out), or the transcript of the turns to leave out, for a turn whose engine
     * summarises them ({@code prompt}; its end applies the summary, {@link ChatCompactions}). An
     * automatic compaction's {@code answer} is its status line, also with a prompt.
     */
    public record CompactPlan(String answer, String prompt, int turns) {
    }

    /** Plans (and, for a truncation, makes) the thread's compaction (spec §11), under its lane lock. */
    public CompactPlan compact(String userKey, UUID chatThread, long now) {
        return plan(userKey, chatThread, now, false).orElseThrow();
    }

    /**
     * The automatic compaction before a person's turn (spec §11.1): only when the thread is idle and
     * its context is past the threshold; then as {@link #compact}, with the answer
     * {@code Context at N% capacity, compacting...}. Empty when nothing is to be done.
     */
    public Optional<CompactPlan> compactIfFull(String userKey, UUID chatThread, long now) {
        return plan(userKey, chatThread, now, true);
    }

    private Optional<CompactPlan> plan(String userKey, UUID chatThread, long now, boolean automatic) {
        Optional<Long> found = directory.find(userKey, chatThread.toString());
        ContextMonitor monitor = new ContextMonitor(settings.contextLimitTokens(), ContextMonitor.DEFAULT_THRESHOLD);
        if (found.isEmpty()) {
            return automatic ? Optional.empty() : Optional.of(new CompactPlan(ChatCompaction.compacted(0, 0, 0, 0), null, 0));
        }
        long threadId = found.get();
        lanes.lock(threadId);
        if (turns.anyActive(threadId)) {
            if (automatic) {
                return Optional.empty(); // the message waits for the running turn; its context is checked no more
            }
            throw new ChatRejectedException(ChatRejectedException.Reason.BUSY, BUSY);
        }
        ContextWindow window = contexts.of(threadId);
        long last = items.lastSeq(threadId);
        List<JsonObject> visible = items.recent(threadId, Integer.MAX_VALUE, window).stream()
                .map(StoredItem::item).toList();
        long before = ChatCompaction.tokens(visible);
        double usage = monitor.usagePercent(before);
        if (automatic && !monitor.needsCompaction(before)) {
            return Optional.empty();
        }
        String status = automatic ? ChatCompaction.automatic(usage) : null;
        ContextMonitor.Strategy strategy = monitor.suggest(before).orElse(ContextMonitor.DEFAULT_STRATEGY);
        List<List<StoredItem>> runs = items.itemsByRun(threadId, window);
        int keep = strategy instanceof ContextMonitor.Truncate t ? t.keepRecent()
                : strategy instanceof ContextMonitor.Summarize sum ? sum.keepRecent() : ChatCompaction.KEEP_RECENT;
        if (runs.size() <= keep) {
            return automatic ? Optional.empty()
                    : Optional.of(new CompactPlan(ChatCompaction.compacted(0, before, before, usage), null, 0));
        }
        List<List<StoredItem>> older = runs.subList(0, runs.size() - keep);
        List<List<StoredItem>> kept = runs.subList(runs.size() - keep, runs.size());
        if (strategy instanceof ContextMonitor.Summarize) {
            return Optional.of(new CompactPlan(status, ChatCompaction.prompt(older.stream()
                    .map(run -> run.stream().map(StoredItem::item).toList()).toList()), older.size()));
        }
        Set<Long> keptSeqs = kept.stream().flatMap(List::stream).map(StoredItem::seq).collect(Collectors.toSet());
        ContextWindow next = window.keeping(keptSeqs, last);
        contexts.write(threadId, next, now);
        long after = ChatCompaction.tokens(items.recent(threadId, Integer.MAX_VALUE, next).stream()
                .map(StoredItem::item).toList());
        String done = ChatCompaction.compacted(older.size(), before, after, usage);
        return Optional.of(new CompactPlan(automatic ? status + " " + done : done, null, 0));
    }

}
