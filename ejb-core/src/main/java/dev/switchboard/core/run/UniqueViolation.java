package dev.switchboard.core.run;

import java.sql.SQLException;

/** Recognises a unique-constraint violation (SQLSTATE 23505 on PostgreSQL and H2) in a cause chain. */
final class UniqueViolation {

    private UniqueViolation() {
    }

    static boolean in(Throwable error) {
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
}
