package dev.switchboard.core.idempotency;

import jakarta.ejb.EJBException;
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
     * Runs a transaction that may create a row on first use (a user's runtime row, an
     * idempotency record); when a concurrent first use created it meanwhile, runs it once more.
     */
    public static <T> T retryOnce(Supplier<T> tx) {
        try {
            return tx.get();
        } catch (EJBException e) {
            if (!in(e)) {
                throw e;
            }
            return tx.get();
        }
    }
}
