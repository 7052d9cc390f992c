package dev.switchboard.core.retention;

import dev.switchboard.core.execution.RunColumns;
import dev.switchboard.core.lane.AgedRun;
import dev.switchboard.core.lane.FinishedRuns;
import dev.switchboard.core.lane.LaneParts;
import dev.switchboard.core.lane.Lanes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.delegation.CallSlots;
import dev.switchboard.core.delegation.PathJournal;
import dev.switchboard.core.delegation.PathRegistry;
import dev.switchboard.core.history.ResponseRecords;
import dev.switchboard.core.history.RunTexts;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.idempotency.IdempotencyKeys;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.core.thread.TurnRows;
import dev.switchboard.core.workspace.Workspaces;
import dev.switchboard.persistence.run.RunKind;
import jakarta.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Retention's transactions built outside the container, on PostgreSQL and on the embedded H2: the
 * ledger over the stores it deletes through, the runs, keys, turns and items written as the server
 * writes them. Finished runs past their age go by kind, with their idempotency keys and their
 * turns, a bounded batch at a time, each batch after the last; younger runs and the conversation
 * history stay, the history going at its own age. An idle thread's workspace is moved aside and
 * its line reset; a busy one, or one whose lane is held, is left alone.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class RetentionLedgerTest {

    private static final Map<FreshDatabase.Kind, Wiring> WIRINGS = new EnumMap<>(FreshDatabase.Kind.class);
    private static final AtomicLong THREAD_IDS = new AtomicLong();
    private static final long DAY = Duration.ofDays(1).toMillis();

    private final Wiring w;

    @TempDir
    Path workspaceRoot;

    /** The stores and the ledger over one database, wired as the container would. */
    private record Wiring(LocalTransactions tx, Statements statements, RetentionLedger ledger, ThreadItems items, Lanes lanes) {

        static Wiring on(FreshDatabase.Kind kind) {
            LocalTransactions tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_retention"));
            Statements statements = new Statements(tx.dataSource());
            ThreadRepository repository = ThreadRepository.ofStatements(statements);
            FinishedRuns runs = LaneParts.finishedRuns(statements, new RunColumns());
            ThreadItems items = new ThreadItems(tx.dataSource());
            RunTexts texts = new RunTexts(statements);
            Lanes lanes = LaneParts.lanes(statements, new RunColumns());
            RetentionLedger ledger = new TransactionalLedger(tx, runs, new IdempotencyKeys(statements), texts,
                    new ResponseRecords(statements, items, texts), new CallSlots(statements), new PathRegistry(statements),
                    new PathJournal(statements, null), // its outbox: retention's deletes write no notification
                    new TurnRows(statements), items, new ThreadWorkspaces(repository, lanes,
                    LaneParts.runReads(statements, new RunColumns())));
            return new Wiring(tx, statements, ledger, items, lanes);
        }
    }

    /** The ledger as the container runs it: each call its own transaction (the pruner calls it outside one). */
    private static final class TransactionalLedger extends RetentionLedger {

        private final LocalTransactions tx;

        TransactionalLedger(LocalTransactions tx, FinishedRuns runs, IdempotencyKeys keys, RunTexts texts,
                ResponseRecords responses, CallSlots callSlots, PathRegistry paths, PathJournal journal, TurnRows turns,
                ThreadItems items, ThreadWorkspaces workspaces) {
            super(runs, keys, texts, responses, callSlots, paths, journal, turns, items, workspaces);
            this.tx = tx;
        }

        @Override
        public List<AgedRun> pruneRuns(RunKind kind, long after, long cutoff, int limit) {
            return tx.inTransaction(() -> super.pruneRuns(kind, after, cutoff, limit));
        }

        @Override
        public List<Long> pruneItems(long after, long cutoff, int limit) {
            return tx.inTransaction(() -> super.pruneItems(after, cutoff, limit));
        }

        @Override
        public ThreadWorkspaces.IdlePage idleWorkspaces(long cutoff, long afterId, int limit) {
            return tx.inTransaction(() -> super.idleWorkspaces(cutoff, afterId, limit));
        }

        @Override
        public boolean resetWorkspace(long threadId, long cutoff, Runnable retire) {
            return tx.inTransaction(() -> super.resetWorkspace(threadId, cutoff, retire));
        }
    }

    RetentionLedgerTest(FreshDatabase.Kind kind) {
        synchronized (WIRINGS) {
            w = WIRINGS.computeIfAbsent(kind, Wiring::on);
        }
    }

    /** A thread of its own, made at {@code createdAt}, with a workspace line when {@code head} is not null. */
    private long thread(String user, long createdAt, String head) {
        long id = THREAD_IDS.incrementAndGet();
        w.tx().run(() -> {
            w.statements().update("INSERT INTO threads (id, user_key, thread_key, created_at, workspace_head)"
                    + " VALUES (?, ?, ?, ?, ?)", s -> {
                        s.setLong(1, id);
                        s.setString(2, user);
                        s.setString(3, "thread-" + id);
                        s.setLong(4, createdAt);
                        s.setString(5, head);
                    }, "a test thread");
            w.lanes().open(id);
        });
        return id;
    }

    /**
     * A run of {@code kind} on the thread, created at {@code createdAt} and finished a second later,
     * with its turn (ended), its input and reply as history items, and its idempotency key when
     * {@code key} is not null; returns its id.
     */
    private String finishedRun(String user, long threadId, RunKind kind, long createdAt, String key) {
        String runId = UUID.randomUUID().toString();
        String turnId = "turn-" + runId;
        w.tx().run(() -> {
            w.statements().update("INSERT INTO runs (run_id, thread_id, thread_seq, user_key, thread_key, source,"
                    + " delivery_mode, state, input_text, attempt, payload_hash, created_at, finished_at, updated_at, turn_id,"
                    + " kind) VALUES (?, ?, ?, ?, ?, 'http', 'followUp', 'succeeded', 'hi', 1, 'h', ?, ?, ?, ?, ?)", s -> {
                        s.setString(1, runId);
                        s.setLong(2, threadId);
                        s.setLong(3, createdAt); // distinct and increasing per thread, as the lane's seqs
                        s.setString(4, user);
                        s.setString(5, "thread-" + threadId);
                        s.setLong(6, createdAt);
                        s.setLong(7, createdAt + 1_000);
                        s.setLong(8, createdAt + 1_000);
                        s.setString(9, turnId);
                        s.setString(10, kind.wire());
                    }, "a finished run");
            w.statements().update("INSERT INTO turns (turn_id, user_key, thread_id, thread_key, state, started_at, ended_at)"
                    + " VALUES (?, ?, ?, ?, 'completed', ?, ?)", s -> {
                        s.setString(1, turnId);
                        s.setString(2, user);
                        s.setLong(3, threadId);
                        s.setString(4, "thread-" + threadId);
                        s.setLong(5, createdAt);
                        s.setLong(6, createdAt + 1_000);
                    }, "its turn");
            if (key != null) {
                w.statements().update("INSERT INTO message_ingest (user_key, source, idempotency_key, run_id, payload_hash,"
                        + " created_at) VALUES (?, 'http', ?, ?, 'h', ?)", s -> {
                            s.setString(1, user);
                            s.setString(2, key);
                            s.setString(3, runId);
                            s.setLong(4, createdAt);
                        }, "its key");
            }
            w.items().append(threadId, runId, turnId, List.of(
                    Json.createObjectBuilder().add("id", "msg_in_" + runId).add("type", "message").add("role", "user").build(),
                    Json.createObjectBuilder().add("id", "msg_out_" + runId).add("type", "message").add("role", "assistant")
                            .build()),
                    createdAt + 1_000);
        });
        return runId;
    }

    private long count(String sql, Object parameter) {
        return w.tx().inTransaction(() -> w.statements().query(sql, s -> s.setObject(1, parameter), rs -> rs.getLong(1),
                "a test count").get(0));
    }

    private long runs(long threadId) {
        return count("SELECT count(*) FROM runs WHERE thread_id = ?", threadId);
    }

    private long turns(long threadId) {
        return count("SELECT count(*) FROM turns WHERE thread_id = ?", threadId);
    }

    private long items(long threadId) {
        return count("SELECT count(*) FROM thread_items WHERE thread_id = ?", threadId);
    }

    private long keys(String user) {
        return count("SELECT count(*) FROM message_ingest WHERE user_key = ?", user);
    }

    @Test
    void agedRunsGoByKindInBoundedBatchesWithTheirKeysAndTurnsWhileTheHistoryAndYoungerRunsStay() {
        String user = "user-" + UUID.randomUUID();
        long now = System.currentTimeMillis();
        long old = now - 31 * DAY;
        long cutoff = now - 30 * DAY;
        long aged = thread(user, old, null);
        long young = thread(user, now, null);
        long events = thread(user, old, null);
        List<String> agedRuns = List.of(finishedRun(user, aged, RunKind.MESSAGE, old, "k-1"),
                finishedRun(user, aged, RunKind.MESSAGE, old + 1, "k-2"), finishedRun(user, aged, RunKind.MESSAGE, old + 2, null));
        finishedRun(user, young, RunKind.MESSAGE, now, "k-3");
        String agedEvent = finishedRun(user, events, RunKind.EVENT, old, null);

        // From just before this test's runs: the other tests' aged runs are older still.
        List<AgedRun> first = w.ledger().pruneRuns(RunKind.MESSAGE, old - 1, cutoff, 2);
        assertEquals(agedRuns.subList(0, 2), first.stream().map(AgedRun::runId).toList(),
                "a batch is bounded, oldest first");
        List<AgedRun> rest = w.ledger().pruneRuns(RunKind.MESSAGE, first.get(1).createdAt(), cutoff, 2);
        assertEquals(agedRuns.subList(2, 3), rest.stream().map(AgedRun::runId).toList(),
                "the next batch goes on after the last");
        assertEquals(List.of(), w.ledger().pruneRuns(RunKind.MESSAGE, rest.get(0).createdAt(), cutoff, 2));

        assertEquals(0, runs(aged), "the aged runs are gone");
        assertEquals(0, turns(aged), "with their turns");
        assertEquals(1, keys(user), "and their idempotency keys: only the young run's is left");
        assertEquals(1, runs(young), "the young thread's run stays");
        assertEquals(1, turns(young));
        assertEquals(6, items(aged), "the conversation history has its own age");
        assertEquals(1, runs(events), "another kind is not this kind's retention");

        assertEquals(List.of(agedEvent), w.ledger().pruneRuns(RunKind.EVENT, old - 1, cutoff, 100).stream()
                .map(AgedRun::runId).toList());
        assertEquals(0, runs(events));
    }

    @Test
    void agedItemsGoInBoundedBatchesAndYoungerOnesStay() {
        String user = "user-" + UUID.randomUUID();
        long now = System.currentTimeMillis();
        long cutoff = now - 30 * DAY;
        long aged = thread(user, now - 40 * DAY, null);
        long young = thread(user, now, null);
        for (int i = 0; i < 3; i++) {
            finishedRun(user, aged, RunKind.MESSAGE, now - 40 * DAY + i, null); // two items each
        }
        finishedRun(user, young, RunKind.MESSAGE, now, null);
        // Items of other tests' threads may be aged too: the batches run until one comes back short.
        List<Long> deleted = new ArrayList<>();
        long after = 0;
        List<Long> batch;
        while ((batch = w.ledger().pruneItems(after, cutoff, 2)).size() == 2) {
            deleted.addAll(batch);
            after = batch.get(1);
        }
        deleted.addAll(batch);
        assertTrue(deleted.size() >= 6, "every aged item went, two at a time: " + deleted);
        assertEquals(deleted.stream().sorted().toList(), deleted, "in id order");
        assertEquals(0, items(aged));
        assertEquals(2, items(young), "the young thread's history stays");
    }

    @Test
    void anIdleThreadsWorkspaceIsMovedAsideAndItsLineResetWhileABusyOrHeldOneStays() throws IOException {
        String user = "user-" + UUID.randomUUID();
        long now = System.currentTimeMillis();
        long cutoff = now - 30 * DAY;
        long idle = thread(user, now - 40 * DAY, "abc123");
        long busy = thread(user, now - 40 * DAY, "def456"); // old, but with a run of today
        long held = thread(user, now - 40 * DAY, "fed789");
        finishedRun(user, idle, RunKind.MESSAGE, now - 40 * DAY, null);
        finishedRun(user, busy, RunKind.MESSAGE, now, null);
        w.tx().run(() -> w.statements().update("UPDATE lanes SET lease_owner = 'another', lease_until = ? WHERE thread_id = ?",
                s -> {
                    s.setLong(1, now + DAY);
                    s.setLong(2, held);
                }, "a held lane"));
        Workspaces dirs = new Workspaces(workspaceRoot, Optional.empty());
        for (long thread : List.of(idle, busy, held)) {
            Files.createDirectories(dirs.threadDir(thread).resolve(".git"));
        }
        RetentionPruner pruner = new RetentionPruner();
        pruner.ledger = w.ledger();
        pruner.settings = new RetentionSettings();
        pruner.settings.batch = 1; // one thread a page: the pages go on after each other
        pruner.clock = InstanceClock.of(Clock.systemUTC());
        pruner.meters = Meters.none();

        assertEquals(1, pruner.retireIdleWorkspaces(dirs, cutoff, Long.MAX_VALUE));
        assertFalse(Files.exists(dirs.threadDir(idle)), "the idle thread's repository is moved aside");
        assertEquals("", w.tx().inTransaction(() -> w.statements().query("SELECT workspace_head FROM threads WHERE id = ?",
                s -> s.setLong(1, idle), rs -> rs.getString(1), "its line").get(0)), "its line is back at the start");
        assertTrue(Files.isDirectory(dirs.threadDir(busy)), "a thread with a recent run keeps its repository");
        assertTrue(Files.isDirectory(dirs.threadDir(held)), "a thread whose lane is held keeps its repository");
        assertEquals(0, pruner.retireIdleWorkspaces(dirs, cutoff, Long.MAX_VALUE),
                "nothing left to retire: a retired workspace is passed over");
    }
}
