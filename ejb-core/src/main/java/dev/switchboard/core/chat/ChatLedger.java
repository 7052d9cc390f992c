package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.conversation.SessionPruning;
import dev.switchboard.core.conversation.ThreadKey;
import dev.switchboard.core.conversation.ThreadResolution;
import dev.switchboard.core.thread.ThreadRepository;
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
import java.util.UUID;

/**
 * The chat gateway's transactions on sessions, threads and keys. Every change to a user's threads
 * and keys first locks the user's session row, so one user's messages resolve their threads one at
 * a time, on every instance; the tables' keys settle what a lock cannot (two first messages of a
 * user creating the session).
 */
@Stateless
public class ChatLedger {

    /** Spec §12.4's answer to a thread id the user does not own. */

    @Inject
    ChatRecords records;

    @Inject
    ServeRuntime runtime;

    @Resource
    SessionContext context;

    @Inject
    ThreadRepository threads;

    @EJB
    TurnQueries queries;

    @Inject
    ChatApprovalLedger approvals;

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
        if (threads.idOf(key.userId(), id.toString()).isEmpty()) {
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
