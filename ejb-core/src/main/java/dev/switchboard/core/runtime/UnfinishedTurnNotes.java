package dev.switchboard.core.runtime;

import dev.switchboard.core.lifecycle.TurnEndings;
import dev.switchboard.core.lifecycle.TurnEnded;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * A turn that did not complete is worth a line in its owner's {@link LogJournal}, once its end is
 * committed. Observed inside the ending transaction, so that the common case — a completed turn —
 * costs a comparison, not a deferred notification and a call of the journal's bean per turn.
 */
@ApplicationScoped
public class UnfinishedTurnNotes implements TurnEndings {

    @EJB
    LogJournal journal;

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Override
    public int order() {
        return 400;
    }

    @Override
    public void turnEnded(TurnEnded turn) {
        if (turn.isCompleted()) {
            return;
        }
        String why = turn.message() == null || turn.message().isBlank() ? "" : ": " + turn.message();
        String line = "turn " + turn.turnId() + " " + turn.outcome() + why;
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    journal.note(turn.userKey(), "warn", line);
                }
            }
        });
    }
}
