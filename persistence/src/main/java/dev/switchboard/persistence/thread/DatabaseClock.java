package dev.switchboard.persistence.thread;

/**
 * The database's clock in SQL, for lease times: instances may disagree about the time, the
 * database they share cannot. Epoch milliseconds as a BIGINT, the same expression on PostgreSQL
 * and H2. Inside a transaction both databases answer the transaction's start time, which errs on
 * the safe side: a lease granted looks shorter, an expiry is seen a little later.
 */
public final class DatabaseClock {

    /** The current time of the database's transaction, epoch ms. */
    public static final String NOW_MS = "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";

    private DatabaseClock() {
    }
}
