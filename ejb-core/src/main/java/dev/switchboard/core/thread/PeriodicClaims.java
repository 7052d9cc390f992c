package dev.switchboard.core.thread;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * One instance at a time runs a periodic task (pruning idle chat sessions, pruning workspaces): it
 * claims the task's {@code periodic_claims} row (V14) for one period — an update only one
 * instance's condition matches — and the others skip that period. The claim ends a tenth of a
 * period early, so the next period's pass finds it free however the schedules drift.
 */
@Store("periodic_claims")
@ApplicationScoped
public class PeriodicClaims {

    private static final String CLAIM = "UPDATE periodic_claims SET owner = ?, until_at = ? WHERE name = ? AND until_at <= ?";

    @Inject
    Statements statements;

    /** Claims task {@code name}'s period starting {@code now} ({@code everyMs} long) for {@code owner}; false when another holds it. */
    public boolean claimPeriod(String name, String owner, long now, long everyMs) {
        long until = now + everyMs - everyMs / 10;
        return statements.update(CLAIM, s -> {
            s.setString(1, owner);
            s.setLong(2, until);
            s.setString(3, name);
            s.setLong(4, now);
        }, "claiming " + name) == 1;
    }
}
