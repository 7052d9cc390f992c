package dev.switchboard.core.notify;

import dev.switchboard.core.notify.NotificationLog.LogEntry;
import dev.switchboard.core.notify.NotificationLog.Sequenced;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * The outbox's transactions: stamping committed notifications with seqs, reading them back, and
 * pruning the log. Each table through its store: the outbox, the log and the sequencer.
 */
@Stateless
public class NotificationLedger {

    @Inject
    Outbox outbox;

    @Inject
    NotificationLog log;

    @Inject
    NotificationSequencer sequencer;

    public NotificationLedger() {
    }

    /** Built outside the container (the in-process tests): each call must run in the caller's transaction. */
    NotificationLedger(Outbox outbox, NotificationLog log, NotificationSequencer sequencer) {
        this.outbox = outbox;
        this.log = log;
        this.sequencer = sequencer;
    }

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
     * <p>
     * Set-based: a read, one insert per {@link dev.switchboard.core.sql.MultiRowInsert#MAX_ROWS}
     * rows, a delete per chunk of ids and the sequencer's update.
     */
    public StampBatch stamp(int limit, boolean probeFirst) {
        if (probeFirst && !outbox.anyPending()) {
            return new StampBatch(-1, List.of()); // nothing to do: no need to take the lock
        }
        long before = sequencer.lock();
        List<Outbox.Pending> pending = outbox.oldest(limit);
        if (pending.isEmpty()) {
            return new StampBatch(before, List.of());
        }
        List<Sequenced> rows = new ArrayList<>(pending.size());
        long seq = before;
        for (Outbox.Pending p : pending) {
            rows.add(new Sequenced(++seq, p.row()));
        }
        log.insert(rows);
        outbox.delete(pending.stream().map(Outbox.Pending::id).toList());
        sequencer.advance(seq);
        return new StampBatch(before, rows.stream().map(r -> Notification.of(r.seq(), r.row())).toList());
    }

    /** Sequenced notifications with {@code after < seq <= upTo}, in seq order. */
    public List<Notification> after(long after, long upTo, int limit) {
        return log.after(after, upTo, limit);
    }

    /** As {@link #after}, for one user only. */
    public List<Notification> afterForUser(String userKey, long after, long upTo, int limit) {
        return log.afterForUser(userKey, after, upTo, limit);
    }

    /**
     * Deletes up to {@code limit} log entries older than {@code cutoffMs}, and moves the log's
     * pruned-through mark up to the highest seq deleted, in the same transaction: a replay from
     * before the mark is told of its gap. Returns how many were deleted.
     */
    public int prune(long cutoffMs, int limit) {
        List<Long> old = log.oldest(cutoffMs, limit);
        if (old.isEmpty()) {
            return 0;
        }
        sequencer.markPruned(old.get(old.size() - 1));
        return log.delete(old);
    }

    /** See {@link NotificationLog#entriesOf}. */
    public List<LogEntry> entriesOf(long after, long upTo, List<String> methods, int limit) {
        return log.entriesOf(after, upTo, methods, limit);
    }

    /** The highest seq handed out; everything up to it is committed. */
    public long lastSeq() {
        return sequencer.lastSeq();
    }

    /** Every seq up to this one may have been pruned: the log keeps only what comes after it. */
    public long prunedThrough() {
        return sequencer.prunedThrough();
    }
}
