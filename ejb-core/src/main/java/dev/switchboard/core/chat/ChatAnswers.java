package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.ApprovalAuthority;
import dev.switchboard.core.conversation.Approvals;
import dev.switchboard.core.conversation.PendingAuth;
import dev.switchboard.core.conversation.ThreadState;
import dev.switchboard.core.engine.ToolResumption;
import dev.switchboard.core.turn.TurnAdmission;
import dev.switchboard.core.turn.TurnDoor;
import dev.switchboard.core.turn.TurnInput;
import dev.switchboard.core.turn.TurnLedger;
import dev.switchboard.core.turn.TurnPolicy;
import dev.switchboard.core.turn.TurnQueries;
import dev.switchboard.core.turn.TurnService;
import dev.switchboard.persistence.run.RunKind;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A person's answers to a paused tool call (spec §8.4, §9): an approval or a denial, the token of
 * the credential it waits for, or the end of that wait. Each answer that lets the calls go on
 * starts the turn that carries them out, a resumption of its own kind. Called by
 * {@link ChatService}, outside any transaction; each step is a transaction of its own.
 */
@ApplicationScoped
public class ChatAnswers {

    /** A paused tool call, resumed once approved or supplied with its credential. */
    static final TurnDoor RESUMPTION = new TurnDoor(ToolResumption.SOURCE, RunKind.RESUMPTION);
    static final String NO_PENDING_APPROVAL = "no pending approval on this thread";

    @EJB
    ChatLedger ledger;

    @Inject
    ChatRecords records;

    @EJB
    TurnService turns;

    @EJB
    TurnQueries queries;

    /**
     * An answer to the thread's pending approval (spec §8.2): from a channel allowed to give it
     * (§8.4), for the pending request ({@code requestId} empty: whatever is pending). Approve and
     * deny each start the turn that carries them out — the waiting call and the calls after it, or
     * the rejection — which takes the approval away in its own transaction, so an approval is
     * answered once.
     */
    public ChatReply answer(String userKey, String channel, UUID threadId, Optional<UUID> requestId, boolean approved,
            boolean always) {
        ChatRecords.ThreadRow row = records.thread(userKey, threadId)
                .orElseThrow(() -> new ChatRejectedException(ChatRejectedException.Reason.NOT_FOUND, "Thread not found."));
        ChatPending pending = pending(userKey, threadId).orElseThrow(() -> new ChatRejectedException(
                ChatRejectedException.Reason.NO_PENDING_APPROVAL, NO_PENDING_APPROVAL));
        if (!ApprovalAuthority.isApprovalAuthorized(row.sourceChannel(), channel)) {
            throw new ChatRejectedException(ChatRejectedException.Reason.NOT_AUTHORIZED,
                    "approval not authorized for this channel");
        }
        Approvals.Verdict verdict = Approvals.judge(ThreadState.AWAITING_APPROVAL, pending.approval(), requestId,
                approved, always);
        ToolResumption resumption;
        String message = null;
        if (verdict instanceof Approvals.Mismatch mismatch) {
            throw new ChatRejectedException(ChatRejectedException.Reason.MISMATCH, mismatch.reply());
        } else if (verdict instanceof Approvals.Denied denied) {
            resumption = new ToolResumption(pending.requestId().toString(), pending.calls(), false, false, denied.reply());
            message = denied.reply();
        } else if (verdict instanceof Approvals.Approved yes) {
            resumption = new ToolResumption(pending.requestId().toString(), pending.calls(), true, yes.remember(), null);
        } else {
            throw new ChatRejectedException(ChatRejectedException.Reason.NO_PENDING_APPROVAL, NO_PENDING_APPROVAL);
        }
        TurnLedger.Outcome outcome;
        try {
            outcome = turns.start(userKey, threadId.toString(), TurnInput.of(List.of(resumption.inputItem())), null,
                    TurnAdmission.of(TurnPolicy.FOLLOWUP, Integer.MAX_VALUE), RESUMPTION);
        } catch (ApprovalGoneException e) {
            throw new ChatRejectedException(ChatRejectedException.Reason.NO_PENDING_APPROVAL, NO_PENDING_APPROVAL);
        }
        return new ChatReply(threadId, ChatReply.STARTED, message, outcome.turn().turnId(), queries.firstRunId(userKey, outcome.turn().turnId()).orElse(null));
    }

    /**
     * A token for the credential the thread waits for (spec §9; the gateway's shortcut, which
     * never passes the message path): stored sealed, then the tool calls that waited for it run in
     * a turn of their own.
     *
     * @throws ChatRejectedException {@code NOT_FOUND}, {@code NO_PENDING_AUTH}, {@code AUTH_EXPIRED}, {@code INVALID_TOKEN}
     */
    public ChatReply giveToken(String userKey, UUID threadId, String token) {
        records.thread(userKey, threadId)
                .orElseThrow(() -> new ChatRejectedException(ChatRejectedException.Reason.NOT_FOUND, "Thread not found."));
        return token(userKey, threadId, token, true);
    }

    /** Ends the thread's auth mode without a token. @throws ChatRejectedException {@code NOT_FOUND}, {@code NO_PENDING_AUTH} */
    public ChatReply cancelAuth(String userKey, UUID threadId) {
        records.thread(userKey, threadId)
                .orElseThrow(() -> new ChatRejectedException(ChatRejectedException.Reason.NOT_FOUND, "Thread not found."));
        if (!ledger.endAuth(userKey, threadId, "cancelled by the user")) {
            throw new ChatRejectedException(ChatRejectedException.Reason.NO_PENDING_AUTH,
                    ChatApprovalLedger.NO_PENDING_AUTH);
        }
        return new ChatReply(threadId, ChatReply.OK, "Authentication cancelled.", null, null);
    }

    /**
     * The token path: the text never becomes input, a title, a log line or a notification —
     * whatever happened meanwhile (another instance took the prompt), it is answered, not passed on.
     *
     * @param strict errors as {@link ChatRejectedException} (the shortcut) rather than replies (a message)
     */
    /** A message's text taken as the token the thread waits for (spec §9): answered with a reply, never refused. */
    public ChatReply tokenInMessage(String userKey, UUID threadId, String text) {
        return token(userKey, threadId, text, false);
    }

    private ChatReply token(String userKey, UUID threadId, String text, boolean strict) {
        ChatAuthPrompt[] answered = new ChatAuthPrompt[1];
        ChatApprovalLedger.TokenOutcome outcome = ledger.giveToken(userKey, threadId, text, p -> answered[0] = p);
        String reply;
        ChatRejectedException.Reason refusal;
        switch (outcome) {
            case ACCEPTED:
                return resumeAfterCredential(userKey, threadId, answered[0]);
            case INVALID:
                reply = PendingAuth.INVALID_TOKEN;
                refusal = ChatRejectedException.Reason.INVALID_TOKEN;
                break;
            case EXPIRED:
                reply = answered[0].auth().expiredReply();
                refusal = ChatRejectedException.Reason.AUTH_EXPIRED;
                break;
            default:
                reply = ChatApprovalLedger.NO_PENDING_AUTH;
                refusal = ChatRejectedException.Reason.NO_PENDING_AUTH;
        }
        if (strict) {
            throw new ChatRejectedException(refusal, reply);
        }
        return new ChatReply(threadId, ChatReply.OK, reply, null, null);
    }

    private ChatReply resumeAfterCredential(String userKey, UUID threadId, ChatAuthPrompt prompt) {
        String done = "Authentication for " + prompt.credential() + " completed.";
        ToolResumption resumption = ToolResumption.afterCredential(prompt.requestId().toString(), prompt.calls());
        TurnLedger.Outcome outcome = turns.start(userKey, threadId.toString(), TurnInput.of(List.of(resumption.inputItem())),
                null, TurnAdmission.of(TurnPolicy.FOLLOWUP, Integer.MAX_VALUE), RESUMPTION);
        return new ChatReply(threadId, ChatReply.STARTED, done, outcome.turn().turnId(), queries.firstRunId(userKey, outcome.turn().turnId()).orElse(null));
    }

    private Optional<ChatPending> pending(String userKey, UUID threadId) {
        return Optional.ofNullable(records.pending(userKey, threadId)).map(ChatPending::fromJson);
    }
}
