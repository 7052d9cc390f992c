package dev.switchboard.persistence.notify;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The single row holding the last notification seq; locking it serialises the stampers. Read here;
 * the stamper advances it in plain SQL ({@code NotificationLedger.stamp}).
 */
@Entity
@Table(name = "notification_sequencer")
public class SequencerRecord {

    public static final int ID = 1;

    @Id
    @Column(name = "id")
    private int id;

    @Column(name = "last_seq", nullable = false)
    private long lastSeq;

    /** Every seq up to this one may have been pruned (retention); replays from before it have a gap. */
    @Column(name = "pruned_through", nullable = false)
    private long prunedThrough;

    protected SequencerRecord() {
    }

    public long getLastSeq() {
        return lastSeq;
    }

    public long getPrunedThrough() {
        return prunedThrough;
    }
}
