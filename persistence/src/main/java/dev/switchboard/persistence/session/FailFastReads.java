package dev.switchboard.persistence.session;

import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionCustomizer;

/**
 * A read that fails is answered at once, never retried.
 *
 * <p>EclipseLink retries a read query that fails outside one of its own transactions whenever a
 * ping on the connection then fails too — three times, five seconds apart. On PostgreSQL any
 * failed statement inside a JTA transaction aborts it, so the ping always fails and every read
 * the database refuses (bad data, a bug) held its caller and a pooled connection for ten seconds
 * before the error. Liberty's connection pool already replaces broken connections, and a caller
 * told {@code 503} retries on its own terms, so the session gives up after the first failure.
 * There is no persistence-unit property for this; only the session's login has the setting.
 */
public class FailFastReads implements SessionCustomizer {

    @Override
    public void customize(Session session) {
        if (session.getDatasourceLogin() instanceof DatabaseLogin login) {
            login.setQueryRetryAttemptCount(0);
            login.setDelayBetweenConnectionAttempts(0);
        }
    }
}
