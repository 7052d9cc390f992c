package dev.switchboard.core.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WakeUpTest {

    /** A transaction as the registry shows it: its key while one is active, the synchronizations registered. */
    private static final class Transaction implements TransactionSynchronizationRegistry {
        final Object key;
        final List<Synchronization> registered = new ArrayList<>();

        Transaction(Object key) {
            this.key = key;
        }

        void end(int status) {
            registered.forEach(s -> s.afterCompletion(status));
        }

        @Override
        public Object getTransactionKey() {
            return key;
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            registered.add(sync);
        }

        @Override
        public void putResource(Object key, Object value) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object getResource(Object key) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int getTransactionStatus() {
            return key == null ? Status.STATUS_NO_TRANSACTION : Status.STATUS_ACTIVE;
        }

        @Override
        public void setRollbackOnly() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean getRollbackOnly() {
            return false;
        }
    }

    @Test
    void raisesBetweenTwoRoundsWakeTheLoopOnce() throws InterruptedException {
        WakeUp wakeUp = new WakeUp();
        assertFalse(wakeUp.await(1), "nothing raised: the wait times out");
        wakeUp.raise();
        wakeUp.raise();
        assertTrue(wakeUp.await(1));
        assertFalse(wakeUp.await(1), "the second raise coalesced into the first");
    }

    @Test
    void raisedOnCommitOnlyOnceTheTransactionHasCommitted() throws InterruptedException {
        WakeUp wakeUp = new WakeUp();
        Transaction committing = new Transaction("tx-1");
        wakeUp.raiseOnCommit(committing);
        assertFalse(wakeUp.await(1), "not before the commit: the loop would find nothing yet");
        committing.end(Status.STATUS_COMMITTED);
        assertTrue(wakeUp.await(1));

        Transaction rolledBack = new Transaction("tx-2");
        wakeUp.raiseOnCommit(rolledBack);
        rolledBack.end(Status.STATUS_ROLLEDBACK);
        assertFalse(wakeUp.await(1), "a rollback wrote nothing to find");

        Transaction none = new Transaction(null);
        wakeUp.raiseOnCommit(none);
        assertEquals(List.of(), none.registered);
        assertTrue(wakeUp.await(1), "outside a transaction: at once");
    }
}
