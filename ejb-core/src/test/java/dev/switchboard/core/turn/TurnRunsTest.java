package dev.switchboard.core.turn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.execution.RunColumns;
import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.core.execution.StoredRuns.StoredRun;
import dev.switchboard.core.lane.LaneParts;
import dev.switchboard.core.lane.RunReads;
import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.thread.TurnRows;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunState;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Turns with their runs built outside the container, on PostgreSQL and on the embedded H2: a turn
 * is its store's row, its runs the lane's (read by the turn they carry), put together in lane order;
 * a thread's open turns are its active ones that have runs, oldest first, and nothing of another
 * thread's or of an ended turn joins them. The lane's reads of runs underneath: a run by id, a
 * lane's page, the runs of many turns past one statement's list, the threads with a recent run and
 * outputs by pattern.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class TurnRunsTest {

    private static final Map<FreshDatabase.Kind, Wiring> WIRINGS = new EnumMap<>(FreshDatabase.Kind.class);
    private static final AtomicLong THREAD_IDS = new AtomicLong(1_000);

    private final Wiring w;

    private record Wiring(LocalTransactions tx, Statements statements, TurnRows turns, RunReads reads, StoredRuns runs,
            TurnRuns turnRuns) {

        static Wiring on(FreshDatabase.Kind kind) {
            LocalTransactions tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_turn_runs"));
            Statements statements = new Statements(tx.dataSource());
            TurnRows turns = new TurnRows(statements);
            RunReads reads = LaneParts.runReads(statements, new RunColumns());
            StoredRuns runs = new StoredRuns(reads);
            return new Wiring(tx, statements, turns, reads, runs, new TurnRuns(turns, runs));
        }
    }

    TurnRunsTest(FreshDatabase.Kind kind) {
        synchronized (WIRINGS) {
            w = WIRINGS.computeIfAbsent(kind, Wiring::on);
        }
    }

    private String turn(long threadId, long startedAt) {
        String turnId = UUID.randomUUID().toString();
        w.tx().run(() -> w.turns().insert(turnId, "u", threadId, "t-" + threadId, startedAt));
        return turnId;
    }

    /** A run of {@code turnId} (null: none) numbered {@code seq} in thread {@code threadId}'s lane, as the lane stores one. */
    private String run(long threadId, long seq, String turnId, String state, String output, long createdAt) {
        return w.tx().inTransaction(() -> insertRun(threadId, seq, turnId, state, output, createdAt));
    }

    /** As {@link #run}, in the caller's transaction. */
    private String insertRun(long threadId, long seq, String turnId, String state, String output, long createdAt) {
        String runId = UUID.randomUUID().toString();
        w.statements().update("INSERT INTO runs (run_id, thread_id, thread_seq, user_key, thread_key,"
                + " source, delivery_mode, state, input_text, output_json, attempt, payload_hash, created_at, updated_at,"
                + " kind, turn_id) VALUES (?, ?, ?, 'u', ?, 'rpc', 'followUp', ?, ?, ?, 1, 'h', ?, ?, 'message', ?)", s -> {
                    s.setString(1, runId);
                    s.setLong(2, threadId);
                    s.setLong(3, seq);
                    s.setString(4, "t-" + threadId);
                    s.setString(5, state);
                    s.setString(6, "input of " + runId);
                    s.setString(7, output);
                    s.setLong(8, createdAt);
                    s.setLong(9, createdAt);
                    s.setString(10, turnId);
                }, "a test run");
        return runId;
    }

    @Test
    void aThreadsOpenTurnsAreItsActiveOnesWithTheirRunsInLaneOrder() {
        long thread = THREAD_IDS.incrementAndGet();
        long other = THREAD_IDS.incrementAndGet();
        String first = turn(thread, 1_000);
        String second = turn(thread, 2_000);
        String ended = turn(thread, 500);
        String empty = turn(thread, 1_500); // active, no run: not open
        String elsewhere = turn(other, 100);
        String a2 = run(thread, 1, second, "queued", null, 10);
        String a1 = run(thread, 2, first, "succeeded", "{\"reply\":\"one\"}", 11);
        String b = run(thread, 3, ended, "succeeded", null, 12);
        String a3 = run(thread, 4, first, "executing", null, 13);
        run(other, 1, elsewhere, "queued", null, 14);
        w.tx().run(() -> w.turns().end(ended, true, "done", "ok", 3_000));

        List<TurnRuns.OpenTurn> open = w.tx().inTransaction(() -> w.turnRuns().openOnThread(thread));

        assertEquals(List.of(first, second), open.stream().map(TurnRuns.OpenTurn::turnId).toList());
        assertEquals(List.of(a1, a3), open.get(0).runs().stream().map(TurnRuns.TurnRunInput::runId).toList());
        assertEquals(List.of(RunState.SUCCEEDED, RunState.EXECUTING),
                open.get(0).runs().stream().map(TurnRuns.TurnRunInput::state).toList());
        assertEquals("input of " + a1, open.get(0).runs().get(0).inputText());
        assertEquals(List.of(a2), open.get(1).runs().stream().map(TurnRuns.TurnRunInput::runId).toList());
        assertTrue(open.stream().noneMatch(t -> t.turnId().equals(empty)), "an active turn without a run is not open");
        assertEquals(List.of(b), w.tx().inTransaction(() -> w.turnRuns().runEnds(ended)).stream()
                .map(TurnRuns.TurnRun::runId).toList(), "an ended turn's runs are still its runs");
    }

    @Test
    void anActiveTurnIsReadWithWhatItsEndNeedsOfItsRunsAndAnEndedOneNotAtAll() {
        long thread = THREAD_IDS.incrementAndGet();
        String turnId = turn(thread, 1_000);
        String done = run(thread, 1, turnId, "succeeded", "{\"reply\":\"hi\"}", 20);
        String failed = run(thread, 2, turnId, "failed", null, 21);

        TurnRuns.ActiveTurn active = w.tx().inTransaction(() -> w.turnRuns().activeTurn(turnId));

        assertEquals(List.of(new TurnRuns.TurnRun(done, RunKind.MESSAGE, 20, RunState.SUCCEEDED, null, null,
                "{\"reply\":\"hi\"}"), new TurnRuns.TurnRun(failed, RunKind.MESSAGE, 21, RunState.FAILED, null, null, null)),
                active.runs());
        assertEquals("t-" + thread, active.threadKey());
        w.tx().run(() -> w.turns().end(turnId, true, "done", "ok", 30));
        assertNull(w.tx().inTransaction(() -> w.turnRuns().activeTurn(turnId)));
    }

    @Test
    void aRunIsReadByIdAndALaneByPagesWithWhatTheRunCarries() {
        long thread = THREAD_IDS.incrementAndGet();
        String turnId = turn(thread, 1_000);
        List<String> ids = new ArrayList<>();
        for (int seq = 1; seq <= 3; seq++) {
            ids.add(run(thread, seq, seq == 2 ? turnId : null, "succeeded", "{\"reply\":\"" + seq + "\"}", 40 + seq));
        }

        StoredRun second = w.tx().inTransaction(() -> w.runs().run(ids.get(1))).orElseThrow();
        assertEquals(turnId, second.turnId());
        assertEquals(2, second.threadSeq());
        assertEquals("u", second.userKey());
        assertEquals(RunKind.MESSAGE, second.kind());
        assertEquals("{\"reply\":\"2\"}", w.tx().inTransaction(() -> w.runs().outputOf(ids.get(1))).orElseThrow());
        assertTrue(w.tx().inTransaction(() -> w.runs().run("no-such-run")).isEmpty());
        assertTrue(w.tx().inTransaction(() -> w.runs().run(null)).isEmpty());
        assertEquals(ids.subList(1, 3), w.tx().inTransaction(() -> w.runs().after(thread, 1, 5)).stream()
                .map(StoredRun::runId).toList());
        assertEquals(ids.subList(0, 1), w.tx().inTransaction(() -> w.runs().after(thread, 0, 1)).stream()
                .map(StoredRun::runId).toList());
    }

    @Test
    void theRunsOfMoreTurnsThanOneStatementListsAreReadInLaneOrder() {
        long thread = THREAD_IDS.incrementAndGet();
        int count = Statements.IN_LIST + 5;
        List<String> turnIds = new ArrayList<>();
        List<String> runIds = new ArrayList<>();
        w.tx().run(() -> {
            for (int seq = 1; seq <= count; seq++) {
                String turnId = UUID.randomUUID().toString();
                w.turns().insert(turnId, "u", thread, "t-" + thread, seq);
                turnIds.add(turnId);
                runIds.add(insertRun(thread, seq, turnId, "queued", null, seq));
            }
        });
        List<String> reversed = new ArrayList<>(turnIds);
        java.util.Collections.reverse(reversed); // the last turns' runs come in the first statement

        assertEquals(runIds, w.tx().inTransaction(() -> w.runs().ofTurns(reversed)).stream().map(StoredRun::runId).toList());
    }

    @Test
    void theLaneTellsWhichThreadsRanLatelyAndWhichOutputsMatch() {
        long quiet = THREAD_IDS.incrementAndGet();
        long busy = THREAD_IDS.incrementAndGet();
        run(quiet, 1, null, "succeeded", "{\"workspace\":{\"commit\":\"c1\"}}", 100);
        run(quiet, 2, null, "failed", "{\"reply\":\"no\"}", 110);
        run(busy, 1, null, "queued", null, 500);

        assertEquals(Set.of(busy), w.tx().inTransaction(() -> w.reads().busySince(List.of(quiet, busy), 200)));
        assertEquals(Set.of(busy), w.tx().inTransaction(() -> w.reads().busySince(List.of(busy), 500)));
        assertEquals(Set.of(), w.tx().inTransaction(() -> w.reads().busySince(List.of(quiet), 111)));
        assertEquals(List.of("{\"workspace\":{\"commit\":\"c1\"}}"),
                w.tx().inTransaction(() -> w.reads().outputsLike(quiet, "%\"workspace\":{%")));
    }
}
