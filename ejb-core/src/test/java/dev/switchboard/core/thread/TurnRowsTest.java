package dev.switchboard.core.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The turns' reads that the thread lists and {@code turn/read} make, on PostgreSQL and on the
 * embedded H2: a thread's active turns in the order they started, and the active turns counted per
 * thread of a page — by id and by key, only the asking user's, ended turns not counted.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class TurnRowsTest {

    private static final Map<FreshDatabase.Kind, Wiring> WIRINGS = new EnumMap<>(FreshDatabase.Kind.class);
    private static final AtomicLong THREAD_IDS = new AtomicLong();

    private final Wiring w;

    private record Wiring(LocalTransactions tx, TurnRows turns) {

        static Wiring on(FreshDatabase.Kind kind) {
            LocalTransactions tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_turn_rows"));
            TurnRows turns = new TurnRows();
            turns.statements = new Statements(tx.dataSource());
            return new Wiring(tx, turns);
        }
    }

    TurnRowsTest(FreshDatabase.Kind kind) {
        synchronized (WIRINGS) {
            w = WIRINGS.computeIfAbsent(kind, Wiring::on);
        }
    }

    private String turn(String user, long threadId, String threadKey, long startedAt) {
        String turnId = "turn-" + UUID.randomUUID();
        w.tx().run(() -> w.turns().insert(turnId, user, threadId, threadKey, startedAt));
        return turnId;
    }

    @Test
    void aThreadsActiveTurnsAreReadInTheOrderTheyStartedAndAnEndedOneIsLeftOut() {
        String user = "u-" + UUID.randomUUID();
        long thread = THREAD_IDS.incrementAndGet();
        String later = turn(user, thread, "t", 2_000);
        String earlier = turn(user, thread, "t", 1_000);
        String ended = turn(user, thread, "t", 500);
        w.tx().run(() -> w.turns().end(ended, true, "done", "ok", 3_000));

        List<TurnRows.TurnRow> active = w.tx().inTransaction(() -> w.turns().activeOnThread(thread));
        assertEquals(List.of(earlier, later), active.stream().map(TurnRows.TurnRow::turnId).toList());
        assertEquals(TurnRows.ACTIVE, active.get(0).state());
        assertNull(active.get(0).endedAt());
        TurnRows.TurnRow done = w.tx().inTransaction(() -> w.turns().read(ended));
        assertEquals(TurnRows.COMPLETED, done.state());
        assertEquals(3_000L, done.endedAt());
    }

    @Test
    void activeTurnsAreCountedPerThreadOfTheAskingUserOnly() {
        String user = "u-" + UUID.randomUUID();
        String other = "o-" + UUID.randomUUID();
        long a = THREAD_IDS.incrementAndGet();
        long b = THREAD_IDS.incrementAndGet();
        long quiet = THREAD_IDS.incrementAndGet();
        String keyA = "a-" + a;
        String keyB = "b-" + b;
        turn(user, a, keyA, 1);
        turn(user, a, keyA, 2);
        turn(user, b, keyB, 3);
        String cancelled = turn(user, b, keyB, 4);
        w.tx().run(() -> w.turns().end(cancelled, false, "cancelled", null, 5));
        turn(other, a, keyA, 6); // another user's turn on a thread of the same id and key counts for nobody here

        assertEquals(Map.of(a, 2L, b, 1L), w.tx().inTransaction(() -> w.turns().activeCounts(user, List.of(a, b, quiet))));
        assertEquals(Map.of(keyA, 2L, keyB, 1L),
                w.tx().inTransaction(() -> w.turns().activeCountsByKey(user, List.of(keyA, keyB, "none"))));
        assertEquals(Map.of(), w.tx().inTransaction(() -> w.turns().activeCounts(user, List.of())), "no threads, no statement");
    }
}
