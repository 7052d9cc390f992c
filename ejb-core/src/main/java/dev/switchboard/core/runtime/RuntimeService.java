package dev.switchboard.core.runtime;

import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.thread.ThreadDirectory;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;

/** The runtime calls the web modules make ({@code server/*}, {@code thread/start}). */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RuntimeService {

    @EJB
    RuntimeLedger ledger;

    @Inject
    ThreadDirectory threads;

    @EJB
    LogJournal journal;

    public RuntimeLedger.Status status(String userKey) {
        return ledger.status(userKey);
    }

    /** False when already paused. */
    public boolean pause(String userKey) {
        return UniqueViolation.retryOnce(() -> ledger.pause(userKey));
    }

    /** False when not paused. */
    public boolean resume(String userKey) {
        return UniqueViolation.retryOnce(() -> ledger.resume(userKey));
    }

    /** Creates the thread if it is new and makes it the user's session. */
    public Instant startThread(String userKey, String threadKey) {
        threads.idOf(userKey, threadKey);
        return UniqueViolation.retryOnce(() -> ledger.startThread(userKey, threadKey));
    }

    public List<LogJournal.Entry> logs(int fromPosition, int maxLines) {
        return journal.read(fromPosition, maxLines);
    }
}
