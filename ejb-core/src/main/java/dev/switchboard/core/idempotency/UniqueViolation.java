package dev.switchboard.core.idempotency;

import jakarta.ejb.ApplicationException;
import java.sql.SQLException;
import java.util.function.Supplier;

/** Recognises a unique-constraint violation (SQLSTATE 23505 on PostgreSQL and H2) in a cause chain. */
public final class UniqueViolation {

    private UniqueViolation() {
    }

    public static boolean in(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                for (SQLException s = sql; s != null; s = s.getNextException()) {
                    if ("23505".equals(s.getSQLState())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * A first use that lost its race to a concurrent one, raised by a transaction that expects such
     * races (its caller runs it again): an application exception, so that the container rolls the
     * transaction back and hands it on as it is, without logging it as an unexpected failure of the
     * bean (CNTR0020E and an FFDC incident on every lost race). Its cause holds the violation.
     */
    @ApplicationException(rollback = true)
    public static final class Lost extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public Lost(RuntimeException violation) {
            super("a concurrent first use created the row meanwhile", violation);
        }
    }

    /** Runs {@code work}, raising a unique violation it meets as {@link Lost}. */
    public static void raisingLost(Runnable work) {
        raisingLost(() -> {
            work.run();
            return null;
        });
    }

    /** Runs {@code work}, raising a unique violation it meets as {@link Lost}; returns what it returns. */
    public static <T> T raisingLost(Supplier<T> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            throw in(e) && !(e instanceof Lost) ? new Lost(e) : e;
        }
    }

    /**
     * Runs a transaction that may create a row on first use (a user's runtime row, an
     * idempotency record); when a concurrent first use created it meanwhile, runs it once more.
     */
    public static <T> T retryOnce(Supplier<T> tx) {
        try {
            return tx.get();
        } catch (RuntimeException e) {
            if (!in(e)) {
                throw e;
            }
            return tx.get();
        }
    }
}
