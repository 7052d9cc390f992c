package dev.switchboard.core.chat;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.conversation.Approvals;
import dev.switchboard.core.conversation.InboundHooks;
import dev.switchboard.core.conversation.PendingAuth;
import dev.switchboard.core.conversation.SessionPruning;
import dev.switchboard.core.conversation.Submission;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.conversation.ThreadKey;
import dev.switchboard.core.conversation.ThreadState;
import dev.switchboard.core.conversation.UndoLine;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.run.QueueCaps;
import dev.switchboard.core.turn.TurnAdmission;
import dev.switchboard.core.turn.TurnDoor;
import dev.switchboard.core.turn.TurnInput;
import dev.switchboard.core.turn.TurnLedger;
import dev.switchboard.core.turn.TurnPolicy;
import dev.switchboard.core.turn.TurnQueries;
import dev.switchboard.core.turn.TurnRejectedException;
import dev.switchboard.core.turn.TurnService;
import dev.switchboard.core.turn.TurnView;
import dev.switchboard.persistence.run.RunKind;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The chat gateway's calls (spec §6): a message from a channel is parsed, its thread resolved,
 * then it becomes a turn of that thread — or waits, merged, for the running one — or a command on
 * the thread. Turns are RPC turns of the thread whose key is the chat thread's id: durable runs in
 * its lane, reported on its notification stream.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ChatService {

    private static final Logger LOG = Logger.getLogger(ChatService.class.getName());

    /** A compaction's summary: its input is the transcript to summarise. */
    static final TurnDoor COMPACTION = new TurnDoor(ContextWindow.SUMMARY_SOURCE, RunKind.COMPACTION);
    static final String INTERRUPTED = "Interrupted.";
    static final String NOTHING_TO_INTERRUPT = "Nothing to interrupt.";
    static final String USER_INTERRUPT = "interrupted by /interrupt";
    /** The most threads one listing returns. */
    public static final int MAX_THREADS = 500;

    @EJB
    ChatLedger ledger;

    @Inject
    ChatAnswers answers;

    @EJB
    ChatContextLedger contexts;

    @Inject
    QueueCaps caps;

    @Inject
    ChatRecords records;

    @EJB
    TurnService turns;

    @EJB
    TurnQueries queries;

    @Inject
    InstanceClock clock;

    @Inject
    ChatSettings settings;

    @Inject
    ChatHooks hooks;

    @Inject
    Event<SessionStarted> sessionStarted;

    /**
     * Handles one message.
     *
     * @param externalThreadId the channel's own thread id; absent and empty are different threads
     * @throws ChatRejectedException when the thread's state or the command does not allow it
     */
    public ChatReply send(String userKey, String channel, Optional<String> externalThreadId, String content) {
        ensureSession(userKey);
        ThreadKey key = new ThreadKey(userKey, channel, externalThreadId);
        Submission submission = Submissions.parse(content);
        if (submission instanceof Submission.NewThread) {
            UUID id = ledger.newThread(key, clock.millis());
            return new ChatReply(id, ChatReply.OK, "New thread " + id + ".", null, null);
        }
        if (submission instanceof Submission.SwitchThread to) {
            if (!ledger.switchTo(key, to.threadId(), clock.millis())) {
                throw new ChatRejectedException(ChatRejectedException.Reason.NOT_FOUND, "Thread not found.");
            }
            return new ChatReply(to.threadId(), ChatReply.OK, "Switched to thread " + to.threadId() + ".", null, null);
        }
        UUID threadId = UniqueViolation.retryOnce(() -> ledger.resolve(key, clock.millis()));
        // what the thread waits for, read once with its row: an approval, a credential, or nothing
        Optional<ChatRecords.ThreadRow> row = records.thread(userKey, threadId);
        Optional<ChatPending> waiting = row.map(ChatRecords.ThreadRow::pending).map(ChatPending::fromJson);
        Optional<ChatAuthPrompt> auth = row.map(ChatRecords.ThreadRow::pendingAuth).map(ChatAuthPrompt::fromJson);
        if (auth.isPresent()) { // spec §9: before anything else reads the text, so a token reaches nothing else
            PendingAuth.Interception interception = auth.get().auth().intercept(submission,
                    java.time.Instant.ofEpochMilli(clock.millis()), settings.authTtl());
            if (interception == PendingAuth.Interception.TOKEN || interception == PendingAuth.Interception.EXPIRED_INPUT) {
                return answers.tokenInMessage(userKey, threadId, content);
            }
            ledger.endAuth(userKey, threadId, interception == PendingAuth.Interception.EXPIRED ? "expired"
                    : "cancelled by a command");
        }
        if (submission instanceof Submission.Interrupt) {
            return new ChatReply(threadId, ChatReply.OK, interrupt(userKey, threadId), null, null);
        }
        if (submission instanceof Submission.Undo) {
            return new ChatReply(threadId, ChatReply.OK, contexts.edit(userKey, threadId, ChatContextLedger.ContextEdit.UNDO,
                    clock.millis()), null, null);
        }
        if (submission instanceof Submission.Redo) {
            return new ChatReply(threadId, ChatReply.OK, contexts.edit(userKey, threadId, ChatContextLedger.ContextEdit.REDO,
                    clock.millis()), null, null);
        }
        if (submission instanceof Submission.Clear) {
            return new ChatReply(threadId, ChatReply.OK, contexts.edit(userKey, threadId, ChatContextLedger.ContextEdit.CLEAR,
                    clock.millis()), null, null);
        }
        if (submission instanceof Submission.Resume resume) {
            return new ChatReply(threadId, ChatReply.OK, contexts.edit(userKey, threadId, ChatContextLedger.ContextEdit.RESUME,
                    resume.checkpointId(), clock.millis()), null, null);
        }
        if (submission instanceof Submission.ListThreads) {
            return new ChatReply(threadId, ChatReply.OK, ChatThreadView.listing(threads(userKey, 20)), null, null);
        }
        if (submission instanceof Submission.Compact) {
            return compact(userKey, threadId);
        }
        if (submission instanceof Submission.UserInput input) {
            InboundHooks.Outcome hooked = hooks.beforeInbound(userKey, channel, input.content());
            if (hooked instanceof InboundHooks.Stopped stopped) {
                return new ChatReply(threadId, ChatReply.OK, stopped.reply(), null, null);
            }
            return talk(userKey, threadId, ((InboundHooks.Continue) hooked).content(), waiting);
        }
        if (submission instanceof Submission.ApprovalResponse keyword) {
            if (waiting.isEmpty()) {
                return talk(userKey, threadId, content, waiting); // a bare keyword with nothing pending is input (spec §8.1)
            }
            return answer(userKey, channel, threadId, Optional.empty(), keyword.approved(), keyword.always());
        }
        if (submission instanceof Submission.ExecApproval exec) {
            return answer(userKey, channel, threadId, Optional.of(exec.requestId()), exec.approved(), exec.always());
        }
        throw new ChatRejectedException(ChatRejectedException.Reason.UNSUPPORTED,
                "This command is not available through the chat gateway yet: " + content.strip());
    }

    /** A new chat thread of the user's, made active (spec §13.2 {@code thread/new}). */
    public ChatThreadView newThread(String userKey, String channel) {
        ensureSession(userKey);
        UUID id = ledger.newThread(new ThreadKey(userKey, channel, Optional.empty()), clock.millis());
        return thread(userKey, id).orElseThrow();
    }

    /** The user's chat threads, most recently active first; {@code active} marks the session's active one. */
    public List<ChatThreadView> threads(String userKey, int limit) {
        Optional<UUID> active = records.session(userKey).flatMap(ChatRecords.SessionRow::activeThread);
        List<ChatRecords.ThreadRow> rows = records.threads(userKey, Math.min(limit, MAX_THREADS));
        Map<String, Long> running = queries.activeTurnCounts(userKey,
                rows.stream().map(r -> r.threadId().toString()).toList());
        List<ChatThreadView> views = new ArrayList<>();
        for (ChatRecords.ThreadRow row : rows) {
            views.add(view(row, running.getOrDefault(row.threadId().toString(), 0L), active));
        }
        return views;
    }

    /** One of the user's chat threads; empty for another user's or an unknown id. */
    public Optional<ChatThreadView> thread(String userKey, UUID threadId) {
        Optional<ChatRecords.ThreadRow> row = records.thread(userKey, threadId);
        if (row.isEmpty()) {
            return Optional.empty();
        }
        Optional<UUID> active = records.session(userKey).flatMap(ChatRecords.SessionRow::activeThread);
        long running = queries.activeTurnCounts(userKey, List.of(threadId.toString()))
                .getOrDefault(threadId.toString(), 0L);
        return Optional.of(view(row.get(), running, active));
    }

    /**
     * A page of a thread's turns, oldest first; {@code nextAfterSeq} is null on the last page;
     * {@code checkpoints}: the undo line's, oldest first ({@code /resume <id>} goes back to one).
     */
    public record History(ChatThreadView thread, List<ChatTurn> turns, Long nextAfterSeq,
            List<UndoLine.Checkpoint<ChatState>> checkpoints) {
    }

    /** One of the user's chat threads with a page of its turns (after the run seq {@code afterSeq}); empty as {@link #thread}. */
    public Optional<History> history(String userKey, UUID threadId, long afterSeq, int limit) {
        Optional<ChatThreadView> thread = thread(userKey, threadId);
        if (thread.isEmpty()) {
            return Optional.empty();
        }
        List<UndoLine.Checkpoint<ChatState>> checkpoints = ChatUndo.read(records.undo(userKey, threadId)).undoStack();
        return Optional.of(queries.thread(userKey, threadId.toString(), afterSeq, limit)
                .map(c -> new History(thread.get(), ChatTurn.of(c.page()), c.nextAfterSeq(), checkpoints))
                .orElse(new History(thread.get(), List.of(), null, checkpoints)));
    }

    private ChatReply talk(String userKey, UUID threadId, String text, Optional<ChatPending> waiting) {
        if (waiting.isPresent()) { // spec §7.2: shown the request again; the input is not kept
            ledger.remindApproval(userKey, threadId, waiting.get());
            return new ChatReply(threadId, ChatReply.OK, Approvals.reminder(waiting.get().approval()), null, null);
        }
        String compacting = compactIfFull(userKey, threadId);
        TurnInput input = TurnInput.of(List.of(Lifecycle.userMessage(text)));
        TurnLedger.Outcome outcome;
        try {
            int cap = caps.maxQueuedChatMessages();
            outcome = turns.start(userKey, threadId.toString(), input, null, TurnAdmission.queueing(cap,
                    "Message queue full (" + cap + "). Wait for the current turn to complete."), TurnDoor.CHAT); // spec §7.1
        } catch (TurnRejectedException e) {
            throw new ChatRejectedException(ChatRejectedException.Reason.QUEUE_FULL, e.getMessage());
        }
        ledger.touch(userKey, threadId, text, clock.millis());
        String runId = runOf(userKey, outcome);
        if (compacting != null) { // the turn runs right after the summary it waits for
            return new ChatReply(threadId, ChatReply.STARTED, compacting, outcome.turn().turnId(), runId);
        }
        if (outcome.waitingFor() > 0) {
            return new ChatReply(threadId, ChatReply.QUEUED, ChatReply.QUEUED_MESSAGE, outcome.turn().turnId(), runId);
        }
        return new ChatReply(threadId, ChatReply.STARTED, null, outcome.turn().turnId(), runId);
    }

    /**
     * Spec §11.1's automatic compaction before a person's turn: when the idle thread's context is
     * past the threshold, its older turns are cut or summarised — the summary's turn queued ahead of
     * the person's, so the person's turn is given the compacted context. A failure is logged and the
     * turn goes on.
     *
     * @return the status line, or null when nothing was done
     */
    private String compactIfFull(String userKey, UUID threadId) {
        try {
            Optional<ChatContextLedger.CompactPlan> plan = contexts.compactIfFull(userKey, threadId, clock.millis());
            if (plan.isEmpty()) {
                return null;
            }
            if (plan.get().prompt() != null) {
                startSummary(userKey, threadId, plan.get());
            }
            return plan.get().answer();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The automatic compaction of chat thread " + threadId + " failed; the turn goes on", e);
            return null;
        }
    }

    private TurnLedger.Outcome startSummary(String userKey, UUID threadId, ChatContextLedger.CompactPlan plan) {
        return turns.start(userKey, threadId.toString(), TurnInput.of(List.of(Lifecycle.userMessage(plan.prompt()))), null,
                TurnAdmission.of(TurnPolicy.FOLLOWUP, Integer.MAX_VALUE), COMPACTION);
    }

    /**
     * {@code /compact} (spec §11): answered at once when there is nothing to do or the turns are
     * cut; otherwise a turn whose engine summarises what is left out, applied when it ends.
     */
    private ChatReply compact(String userKey, UUID threadId) {
        ChatContextLedger.CompactPlan plan = contexts.compact(userKey, threadId, clock.millis());
        if (plan.prompt() == null) {
            return new ChatReply(threadId, ChatReply.OK, plan.answer(), null, null);
        }
        TurnLedger.Outcome outcome = startSummary(userKey, threadId, plan);
        return new ChatReply(threadId, ChatReply.STARTED, "Compacting: summarizing " + plan.turns() + " turn(s).",
                outcome.turn().turnId(), runOf(userKey, outcome));
    }

    /** Interrupts the thread's running turn and drops what waits for it (spec §3.2 {@code interrupt()}). */
    private String interrupt(String userKey, UUID threadId) {
        List<TurnView> active = queries.activeTurns(userKey, threadId.toString());
        boolean any = ledger.dropApproval(userKey, threadId, "interrupt");
        for (TurnView turn : active) {
            try {
                turns.interrupt(userKey, turn.turnId(), USER_INTERRUPT);
                any = true;
            } catch (TurnRejectedException e) {
                // ended meanwhile, or dropped with the running one: nothing more to stop
            }
        }
        return any ? INTERRUPTED : NOTHING_TO_INTERRUPT;
    }

    private void ensureSession(String userKey) {
        if (records.session(userKey).isPresent()) {
            return;
        }
        UUID sessionId = UUID.randomUUID();
        long now = clock.millis();
        // Two first messages of a user at once both create its runtime row: the loser retries and finds it.
        boolean created = UniqueViolation.retryOnce(() -> ledger.ensureSession(userKey, sessionId, now));
        if (created) {
            SessionPruning.countWarning((int) Math.min(Integer.MAX_VALUE, records.sessionCount())).ifPresent(LOG::warning);
            sessionStarted.fireAsync(new SessionStarted(userKey, sessionId, now)).exceptionally(error -> {
                LOG.log(Level.WARNING, "A SessionStarted observer failed; the session is unaffected", error);
                return null;
            });
        }
    }

    private ChatThreadView view(ChatRecords.ThreadRow row, long activeTurns, Optional<UUID> active) {
        ChatPending pending = row.pending() == null ? null : ChatPending.fromJson(row.pending());
        ThreadState state = ThreadState.of(activeTurns > 0, pending != null);
        return new ChatThreadView(row.threadId(), state.label(), (int) activeTurns, row.title(), row.sourceChannel(),
                row.createdAt(), row.updatedAt(), active.filter(row.threadId()::equals).isPresent(), pending,
                row.pendingAuth() == null ? null
                        : ChatAuthPrompt.fromJson(row.pendingAuth()).shown(row.threadId().toString(), settings.authTtl()));
    }

    /** {@link ChatAnswers#answer}. */
    public ChatReply answer(String userKey, String channel, UUID threadId, Optional<UUID> requestId, boolean approved,
            boolean always) {
        return answers.answer(userKey, channel, threadId, requestId, approved, always);
    }

    /** {@link ChatAnswers#giveToken}. */
    public ChatReply giveToken(String userKey, UUID threadId, String token) {
        return answers.giveToken(userKey, threadId, token);
    }

    /** {@link ChatAnswers#cancelAuth}. */
    public ChatReply cancelAuth(String userKey, UUID threadId) {
        return answers.cancelAuth(userKey, threadId);
    }

    private String runOf(String userKey, TurnLedger.Outcome outcome) {
        return queries.firstRunId(userKey, outcome.turn().turnId()).orElse(null);
    }
}
