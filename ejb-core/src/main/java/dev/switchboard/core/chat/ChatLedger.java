package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.conversation.ContextMonitor;
import dev.switchboard.core.conversation.SessionPruning;
import dev.switchboard.core.conversation.ThreadKey;
import dev.switchboard.core.conversation.ThreadResolution;
import dev.switchboard.core.conversation.UndoLine;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.history.StoredItem;
import dev.switchboard.core.history.ThreadContexts;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.thread.ThreadDirectory;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.core.thread.LaneRows;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.core.thread.TurnRows;
import dev.switchboard.core.turn.TurnQueries;
import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.runtime.ServeRuntime;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import jakarta.json.JsonObject;
import java.util.UUID;

/**
 * The chat gateway's transactions on sessions, threads and keys. Every change to a user's threads
 * and keys first locks the user's session row, so one user's messages resolve their threads one at
 * a time, on every instance; the tables' keys settle what a lock cannot (two first messages of a
 * user creating the session).
 */
@Stateless
public class ChatLedger {

    static final String NOTHING_TO_UNDO = "Nothing to undo.";
    static final String NOTHING_TO_REDO = "Nothing to redo.";
    static final String CLEARED = "Thread cleared.";
    static final String BUSY = "A turn is running on this thread. Use /interrupt first.";

    /** Spec §12.4's answer to a thread id the user does not own. */

    @Inject
    ChatRecords records;

    @Inject
    ServeRuntime runtime;

    @Resource
    SessionContext context;

    @Inject
    ThreadDirectory directory;

    @EJB
    ThreadWorkspaces workspaces;

    @Inject
    ThreadRepository threads;

    @Inject
    LaneRows lanes;

    @Inject
    TurnRows turns;

    @Inject
    ThreadItems items;

    @Inject
    ThreadContexts contexts;

    @EJB
    TurnQueries queries;

    @Inject
    ChatApprovalLedger approvals;

    @Inject
    ChatSettings settings;

    /**
     * Creates the user's session unless it exists, in a transaction of its own; true when this call
     * created it. The session's insert decides a race (a concurrent creator waits on the key, then
     * finds it taken and rolls back quietly), so only the winner also makes the user's runtime row,
     * which the user's first turns would otherwise race to create.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean ensureSession(String userKey, UUID sessionId, long now) {
        try {
            if (!records.createSession(userKey, sessionId, now)) {
                return false;
            }
        } catch (RuntimeException e) {
            if (!UniqueViolation.in(e)) {
                throw e;
            }
            context.setRollbackOnly();
            return false;
        }
        runtime.locked(userKey);
        return true;
    }

    /**
     * The thread a message with {@code key} goes to. A channel thread id that is the id of one of
     * the user's threads reaches that thread from this channel too (spec §12.4: registered, made
     * active); otherwise the thread is mapped, adopted or created as §2.2 says. Thread ids are the
     * user's own: another user's thread with the same id is not seen at all, so an id answers the
     * same whether or not someone else uses it.
     */
    public UUID resolve(ThreadKey key, long now) {
        lockedSession(key.userId());
        Optional<UUID> named = key.externalThreadId().flatMap(Submissions::uuid);
        if (named.isPresent()) {
            if (owned(key.userId(), named.get())) {
                if (!records.mapped(key).equals(named)) {
                    records.map(key, named.get());
                }
                records.activate(key.userId(), named.get(), now);
                return named.get();
            }
        }
        ThreadResolution.Outcome outcome = ThreadResolution.resolve(key, lookup(key.userId()));
        if (outcome instanceof ThreadResolution.Mapped mapped) {
            return mapped.threadId();
        }
        if (outcome instanceof ThreadResolution.Adopt adopt) {
            records.map(key, adopt.threadId());
            return adopt.threadId();
        }
        UUID id = outcome instanceof ThreadResolution.CreateWithId withId ? withId.threadId() : UUID.randomUUID();
        create(key, id, now);
        return id;
    }

    /**
     * {@code /thread new}: a fresh thread, made active, and the key the command came with now leads
     * to it — a channel that always sends the same thread id (or none) continues in the new thread
     * (decision I2).
     */
    public UUID newThread(ThreadKey key, long now) {
        lockedSession(key.userId());
        UUID id = UUID.randomUUID();
        createThread(key, id, now);
        records.activate(key.userId(), id, now);
        records.map(key, id);
        return id;
    }

    /** {@code /thread <id>}: the user's thread becomes active, and the key the command came with leads to it. */
    public boolean switchTo(ThreadKey key, UUID threadId, long now) {
        lockedSession(key.userId());
        if (!owned(key.userId(), threadId)) {
            return false;
        }
        records.activate(key.userId(), threadId, now);
        records.map(key, threadId);
        return true;
    }

    /** Notes a message on the thread (its title is its first) and the session's activity (decision I1). */
    public void touch(String userKey, UUID threadId, String text, long now) {
        records.touch(userKey, threadId, text, now);
        records.touchSession(userKey, now);
    }

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

    /** Drops the thread's pending approval (decision I5); false when it waited for none. */
    public boolean dropApproval(String userKey, UUID chatThread, String why) {
        return approvals.drop(userKey, chatThread, why);
    }

    /**
     * A token for the credential the thread waits for, in one transaction: stored sealed and auth
     * mode ended, or asked again, or expired ({@link ChatApprovalLedger#giveToken}).
     */
    public ChatApprovalLedger.TokenOutcome giveToken(String userKey, UUID chatThread, String text,
            java.util.function.Consumer<ChatAuthPrompt> prompt) {
        return approvals.giveToken(userKey, chatThread, text, prompt);
    }

    /** Ends the thread's auth mode without a token; false when it was in none. */
    public boolean endAuth(String userKey, UUID chatThread, String why) {
        return approvals.endAuth(userKey, chatThread, why);
    }

    /** Shows the thread's pending approval again ({@code approval/requested}). */
    public void remindApproval(String userKey, UUID chatThread, ChatPending pending) {
        approvals.remind(userKey, chatThread, pending);
    }

    private void create(ThreadKey key, UUID id, long now) {
        createThread(key, id, now);
        records.activate(key.userId(), id, now);
        records.map(key, id);
    }

    /**
     * The chat thread and, unless another door made it already, its Switchboard thread — here,
     * under the session's lock, so a user's first messages on it do not race to create it.
     */
    private void createThread(ThreadKey key, UUID id, long now) {
        records.createThread(key.userId(), id, key.channel(), now);
        if (threads.thread(key.userId(), id.toString()).isEmpty()) {
            threads.create(key.userId(), id.toString(), now);
        }
    }

    private boolean owned(String userKey, UUID threadId) {
        return records.thread(userKey, threadId).isPresent();
    }

    /** Locks the user's session row, making it again if pruning removed it since the caller ensured it. */
    private void lockedSession(String userKey) {
        if (records.lockSession(userKey).isEmpty()) {
            records.createSession(userKey, UUID.randomUUID(), System.currentTimeMillis());
            records.lockSession(userKey);
        }
    }

    /**
     * Prunes the user's session if it is still idle since before {@code cutoff} and none of its
     * threads has an active turn, under the session's lock; empty when it was kept.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Optional<SessionEnded> prune(String userKey, long cutoff, long now) {
        Optional<ChatRecords.SessionRow> session = records.lockSession(userKey);
        if (session.isEmpty()) {
            return Optional.empty();
        }
        List<UUID> threadIds = records.threadIds(userKey);
        boolean busy = !threadIds.isEmpty() && queries.activeTurnCounts(userKey,
                threadIds.stream().map(UUID::toString).toList()).values().stream().anyMatch(n -> n > 0);
        List<SessionPruning.Candidate> stale = SessionPruning.stale(List.of(new SessionPruning.Candidate(userKey,
                Instant.ofEpochMilli(session.get().lastActiveAt()), busy)), Instant.ofEpochMilli(now),
                Duration.ofMillis(now - cutoff));
        if (stale.isEmpty()) {
            return Optional.empty();
        }
        records.removeSession(userKey);
        return Optional.of(new SessionEnded(userKey, session.get().sessionId(), threadIds, now));
    }

    private ThreadResolution.Lookup lookup(String userKey) {
        return new ThreadResolution.Lookup() {
            @Override
            public Optional<UUID> mapped(ThreadKey key) {
                return records.mapped(key);
            }

            @Override
            public boolean inSession(UUID threadId) {
                return owned(userKey, threadId);
            }

            @Override
            public boolean claimedElsewhere(UUID threadId) {
                return records.mappedByUser(userKey, threadId);
            }
        };
    }
}
