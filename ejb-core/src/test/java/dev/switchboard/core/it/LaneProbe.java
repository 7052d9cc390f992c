package dev.switchboard.core.it;

import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * In-container test helper: reads and bends the lane tables, each call in its own transaction, so
 * the tests see what the ledgers committed (the persistence unit has no shared cache).
 */
@Stateless
public class LaneProbe {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** Empties the lane tables (not the schema): every test starts without runs, turns, threads or keys. */
    public void clear() {
        em.createNativeQuery("DELETE FROM message_ingest").executeUpdate();
        em.createNativeQuery("DELETE FROM runs").executeUpdate();
        em.createNativeQuery("DELETE FROM turns").executeUpdate();
        em.createNativeQuery("DELETE FROM threads").executeUpdate();
    }

    /** The run as committed, or null. */
    public RunRecord run(String runId) {
        return em.find(RunRecord.class, runId);
    }

    /** The thread as committed, or null. */
    public ThreadRecord thread(long threadId) {
        return em.find(ThreadRecord.class, threadId);
    }

    public List<RunRecord> runsOf(long threadId) {
        return em.createQuery("SELECT r FROM RunRecord r WHERE r.threadId = :threadId ORDER BY r.threadSeq",
                        RunRecord.class)
                .setParameter("threadId", threadId)
                .getResultList();
    }
}
