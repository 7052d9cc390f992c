package dev.switchboard.core.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.execution.RunColumns;
import dev.switchboard.core.idempotency.UniqueViolation;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.LaneParts;
import dev.switchboard.core.lane.Lanes;
import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A thread's creation built outside the container, on PostgreSQL and on the embedded H2: one insert
 * through the thread's store with its id from the sequence, the thread made with its lane (free, its
 * first run numbered 1) in the same transaction; a second creation of the same key is a unique
 * violation — the lost race its callers run again — and leaves neither a thread nor a lane.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class ThreadCreationTest {

    private final LocalTransactions tx;
    private final Statements statements;
    private final Lanes lanes;
    private final ThreadRepository repository;

    ThreadCreationTest(FreshDatabase.Kind kind) {
        tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_thread_creation"));
        statements = new Statements(tx.dataSource());
        lanes = LaneParts.lanes(statements, new RunColumns());
        repository = ThreadRepository.ofStatements(statements, lanes);
    }

    @Test
    void aThreadIsMadeWithItsLaneAndItsKindAndEngine() {
        String key = "t-" + UUID.randomUUID();
        long first = tx.inTransaction(() -> repository.create("u", key, "scripted", 1_000));
        long second = tx.inTransaction(() -> repository.create("u", "other-" + key, 2_000));
        long internal = tx.inTransaction(() -> repository.create("u", ThreadKinds.RESPONSES_PREFIX + key, 3_000));

        assertNotEquals(first, second);
        Lane lane = tx.inTransaction(() -> lanes.lock(first));
        assertNotNull(lane, "the thread's lane was made with it");
        assertNull(lane.leaseOwner());
        assertEquals(1, lane.nextSeq());
        assertEquals(List.of("u", key, "1000", "false", "scripted"), row(first));
        assertEquals("true", row(internal).get(3), "a chain of responses' thread is marked internal");
    }

    @Test
    void aSecondCreationOfOneKeyIsAUniqueViolationThatLeavesNothing() {
        String key = "t-" + UUID.randomUUID();
        tx.inTransaction(() -> repository.create("u", key, 1_000));
        long before = count();

        RuntimeException lost = assertThrows(RuntimeException.class,
                () -> tx.inTransaction(() -> repository.create("u", key, 2_000)));

        assertTrue(UniqueViolation.in(lost), "a unique violation, which its callers run again: " + lost);
        assertEquals(before, count(), "no thread and no lane left behind");
    }

    private List<String> row(long id) {
        return tx.inTransaction(() -> statements.query("SELECT user_key, thread_key, created_at, is_internal, engine"
                + " FROM threads WHERE id = ?", s -> s.setLong(1, id), rs -> List.of(rs.getString(1), rs.getString(2),
                        Long.toString(rs.getLong(3)), Boolean.toString(rs.getBoolean(4)), String.valueOf(rs.getString(5))),
                "reading a thread")).get(0);
    }

    private long count() {
        return tx.inTransaction(() -> statements.query("SELECT (SELECT count(*) FROM threads) + (SELECT count(*) FROM lanes)",
                s -> { }, rs -> rs.getLong(1), "counting")).get(0);
    }
}
