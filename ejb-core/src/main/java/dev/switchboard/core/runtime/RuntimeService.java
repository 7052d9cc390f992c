package dev.switchboard.core.runtime;

import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.lane.InstanceBeacon;
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
    InstanceBeacon beacon;

    @EJB
    RuntimeLedger ledger;

    @Inject
    ThreadDirectory threads;

    @EJB
    LogJournal journal;

    public RuntimeStatus status(String userKey) {
        return ledger.status(userKey);
    }

    /** False when already paused. */
    public boolean pause(String userKey) {
        boolean paused = UniqueViolation.retryOnce(() -> ledger.pause(userKey));
        if (paused) {
            journal.note(userKey, "info", "Paused event processing");
        }
        return paused;
    }

    /** False when not paused. */
    public boolean resume(String userKey) {
        boolean resumed = UniqueViolation.retryOnce(() -> ledger.resume(userKey));
        if (resumed) {
            journal.note(userKey, "info", "Resumed event processing");
        }
        return resumed;
    }

    /** Creates the thread if it is new and makes it the user's session. */
    public Instant startThread(String userKey, String threadKey) {
        threads.idOf(userKey, threadKey);
        return UniqueViolation.retryOnce(() -> ledger.startThread(userKey, threadKey));
    }

    /** The cluster's instances ({@code server/instances}). */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<InstanceBeacon.Instance> instances() {
        return beacon.list();
    }

    /** The journal entries {@code userKey} may see: its own, or every entry for an operator. */
    public List<LogJournal.Entry> logs(String userKey, boolean operator, int fromPosition, int maxLines) {
        return journal.read(userKey, operator, fromPosition, maxLines);
    }
}
