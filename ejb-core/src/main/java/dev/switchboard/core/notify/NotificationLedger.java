package dev.switchboard.core.notify;

import dev.switchboard.persistence.notify.NotificationRecord;
import dev.switchboard.persistence.notify.OutboxRecord;
import dev.switchboard.persistence.notify.SequencerRecord;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.List;

/** The outbox's transactions: stamping committed notifications with seqs, and reading them back. */
@Stateless
public class NotificationLedger {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** The notifications one stamping transaction sequenced; {@code before} is the last seq before them. */
    public record StampBatch(long before, List<Notification> stamped) {
    }

    /**
     * Moves committed notifications from the outbox into the log, in insertion order, giving each
     * the next seq. Stampers (one per instance) serialise on the sequencer row, so a stamping
     * transaction commits before the next one can read: whoever sees seq N also sees every seq
     * below it — seq order is commit order, and a tailer never skips a notification that commits late.
     * With {@code probeFirst} (a poll, when there is probably nothing to do) the lock is only taken
     * when something is pending, so idle instances do not contend for it.
     */
    public StampBatch stamp(int limit, boolean probeFirst) {
        if (probeFirst && pending(1).isEmpty()) {
            return new StampBatch(-1, List.of()); // nothing to do: no need to take the lock
        }
        SequencerRecord sequencer = em.find(SequencerRecord.class, SequencerRecord.ID, LockModeType.PESSIMISTIC_WRITE);
        long before = sequencer.getLastSeq();
        long seq = before;
        List<Notification> stamped = new ArrayList<>();
        for (OutboxRecord row : pending(limit)) {
            NotificationRecord entry = row.sequenced(++seq);
            em.persist(entry);
            em.remove(row);
            stamped.add(Notification.of(entry));
        }
        sequencer.advanceTo(seq);
        em.flush();
        return new StampBatch(before, stamped);
    }

    /** Sequenced notifications with {@code after < seq <= upTo}, in seq order. */
    public List<Notification> after(long after, long upTo, int limit) {
        return em.createNamedQuery(NotificationRecord.AFTER, NotificationRecord.class)
                .setParameter("after", after)
                .setParameter("upTo", upTo)
                .setMaxResults(limit)
                .getResultList().stream().map(Notification::of).toList();
    }

    /** As {@link #after}, for one user only. */
    public List<Notification> afterForUser(String userKey, long after, long upTo, int limit) {
        return em.createNamedQuery(NotificationRecord.AFTER_FOR_USER, NotificationRecord.class)
                .setParameter("userKey", userKey)
                .setParameter("after", after)
                .setParameter("upTo", upTo)
                .setMaxResults(limit)
                .getResultList().stream().map(Notification::of).toList();
    }

    /**
     * Deletes up to {@code limit} log entries older than {@code cutoffMs}, and moves the log's
     * pruned-through mark up to the highest seq deleted, in the same transaction: a replay from
     * before the mark is told of its gap. Returns how many were deleted.
     */
    public int prune(long cutoffMs, int limit) {
        List<Long> old = em.createQuery("SELECT n.seq FROM NotificationRecord n WHERE n.createdAt < :cutoff ORDER BY n.seq",
                        Long.class)
                .setParameter("cutoff", cutoffMs)
                .setMaxResults(limit)
                .getResultList();
        if (old.isEmpty()) {
            return 0;
        }
        em.createQuery("UPDATE SequencerRecord s SET s.prunedThrough = :seq WHERE s.id = :id AND s.prunedThrough < :seq")
                .setParameter("seq", old.get(old.size() - 1))
                .setParameter("id", SequencerRecord.ID)
                .executeUpdate();
        return em.createQuery("DELETE FROM NotificationRecord n WHERE n.seq IN :seqs")
                .setParameter("seqs", old)
                .executeUpdate();
    }

    /** The highest seq handed out; everything up to it is committed. */
    public long lastSeq() {
        return em.find(SequencerRecord.class, SequencerRecord.ID).getLastSeq();
    }

    /** Every seq up to this one may have been pruned: the log keeps only what comes after it. */
    public long prunedThrough() {
        return em.find(SequencerRecord.class, SequencerRecord.ID).getPrunedThrough();
    }

    private List<OutboxRecord> pending(int limit) {
        return em.createNamedQuery(OutboxRecord.PENDING, OutboxRecord.class)
                .setMaxResults(limit)
                .getResultList();
    }
}
