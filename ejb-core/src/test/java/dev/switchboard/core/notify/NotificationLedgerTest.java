package dev.switchboard.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.notify.NotificationLedger.StampBatch;
import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The notification log's transactions built outside the container, on PostgreSQL and on the
 * embedded H2: the outbox, the log and the sequencer each through its store, transactions from
 * {@link LocalTransactions}. A late commit is a writer's transaction held open at its exact step
 * (after its insert, before its commit) while another commits.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class NotificationLedgerTest {

    private static final Map<FreshDatabase.Kind, Wiring> WIRINGS = new EnumMap<>(FreshDatabase.Kind.class);

    private final Wiring w;

    /** The stores and the ledger over one database, wired as the container would. */
    private record Wiring(LocalTransactions tx, Statements statements, Outbox outbox, NotificationLedger ledger) {

        static Wiring on(FreshDatabase.Kind kind) {
            LocalTransactions tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_notify_inprocess"));
            Statements statements = new Statements(tx.dataSource());
            Outbox outbox = new Outbox(statements);
            return new Wiring(tx, statements, outbox, new NotificationLedger(outbox, new NotificationLog(statements),
                    new NotificationSequencer(statements)));
        }
    }

    NotificationLedgerTest(FreshDatabase.Kind kind) {
        synchronized (WIRINGS) {
            w = WIRINGS.computeIfAbsent(kind, Wiring::on);
        }
    }

    private static OutboxRow row(String user, String text, long createdAt) {
        return new OutboxRow(user, "thread-" + user, "item/completed", "{\"text\":\"" + text + "\"}", createdAt);
    }

    private void commit(OutboxRow... rows) {
        w.tx().run(() -> w.outbox().write(List.of(rows)));
    }

    /** Stamps until nothing is left; returns what was stamped, in order. */
    private List<Notification> stampAll(int limit) {
        List<Notification> all = new ArrayList<>();
        while (true) {
            StampBatch batch = w.tx().inTransaction(() -> w.ledger().stamp(limit, true));
            if (batch.stamped().isEmpty()) {
                return all;
            }
            all.addAll(batch.stamped());
        }
    }

    private List<Notification> ofUser(String user, long after) {
        return w.tx().inTransaction(() -> w.ledger().afterForUser(user, after, w.ledger().lastSeq(), 1_000));
    }

    private long lastSeq() {
        return w.tx().inTransaction(() -> w.ledger().lastSeq());
    }

    @Test
    void aNotificationCommittedLateGetsTheLaterSeqAndIsNeverSkipped() throws Exception {
        String user = "late-" + UUID.randomUUID();
        stampAll(100);
        long start = lastSeq();
        try (HeldOutboxWrite early = new HeldOutboxWrite(w.tx(), w.outbox(),
                row(user, "first-started", System.currentTimeMillis()))) {
            commit(row(user, "second-started", System.currentTimeMillis()));

            List<Notification> firstPass = stampAll(100);
            assertEquals(1, firstPass.size(), "only the committed notification is sequenced: " + firstPass);
            assertTrue(firstPass.get(0).line().contains("second-started"), firstPass.toString());
            assertEquals(start + 1, firstPass.get(0).seq(), "the next seq, without a gap");
            assertEquals(firstPass, ofUser(user, start), "the log holds what was stamped");
            assertEquals(firstPass, w.tx().inTransaction(() -> w.ledger().after(start, start + 1, 10)),
                    "every user's log holds it too");

            early.commit();
            List<Notification> secondPass = stampAll(100);
            assertEquals(1, secondPass.size(), secondPass.toString());
            assertTrue(secondPass.get(0).line().contains("first-started"), "the late commit comes later: " + secondPass);
            assertEquals(start + 2, secondPass.get(0).seq());
            assertEquals(secondPass, ofUser(user, firstPass.get(0).seq()),
                    "a reader that saw the earlier seq resumes after it and gets the late one");
            assertTrue(stampAll(100).isEmpty(), "nothing is stamped twice");
            assertTrue(w.tx().inTransaction(() -> !w.outbox().anyPending()), "the outbox is empty once stamped");
        }
    }

    /**
     * The stamper deletes exactly the rows it read: a row with a lower id whose transaction commits
     * between the stamper's read and its delete (held there) stays for the next stamp — a delete of
     * the range up to the highest id read would lose it.
     */
    @Test
    void aRowCommittedBetweenTheStampersReadAndItsDeleteIsKeptForTheNextStamp() throws Exception {
        String user = "gap-" + UUID.randomUUID();
        stampAll(100);
        long start = lastSeq();
        try (HeldOutboxWrite inTheGap = new HeldOutboxWrite(w.tx(), w.outbox(),
                row(user, "in-the-gap", System.currentTimeMillis()))) {
            commit(row(user, "read-by-the-stamper", System.currentTimeMillis()));
            AtomicBoolean held = new AtomicBoolean();
            Outbox commitsInTheGap = new Outbox(w.statements()) {
                @Override
                void delete(List<Long> ids) {
                    if (held.compareAndSet(false, true)) { // the gap's writer commits now, after the read
                        inTheGap.commit();
                    }
                    super.delete(ids);
                }
            };
            NotificationLedger stamper = new NotificationLedger(commitsInTheGap, new NotificationLog(w.statements()),
                    new NotificationSequencer(w.statements()));

            StampBatch first = w.tx().inTransaction(() -> stamper.stamp(100, true));
            assertTrue(held.get(), "the stamper was held between its read and its delete");
            assertEquals(1, first.stamped().size(), first.stamped().toString());
            assertTrue(first.stamped().get(0).line().contains("read-by-the-stamper"));

            List<Notification> next = stampAll(100);
            assertEquals(1, next.size(), "the row committed in the gap is still there: " + next);
            assertTrue(next.get(0).line().contains("in-the-gap"));
            assertEquals(List.of(start + 1, start + 2), ofUser(user, start).stream().map(Notification::seq).toList());
        }
    }

    @Test
    void aStampMovesAtMostItsLimitInInsertionOrderAndTheNextGoesOnFromItsLastSeq() {
        String user = "many-" + UUID.randomUUID();
        stampAll(100);
        long start = lastSeq();
        // More rows than one multi-row insert (32) and one listed delete (128) take: the chunks meet.
        List<OutboxRow> rows = IntStream.range(0, 300).mapToObj(i -> row(user, "n" + i, System.currentTimeMillis())).toList();
        w.tx().run(() -> w.outbox().write(rows));

        StampBatch first = w.tx().inTransaction(() -> w.ledger().stamp(130, false));
        assertEquals(start, first.before(), "the batch says where it starts");
        assertEquals(130, first.stamped().size());
        StampBatch second = w.tx().inTransaction(() -> w.ledger().stamp(1_000, true));
        assertEquals(start + 130, second.before(), "the next stamp goes on from the last seq handed out");
        assertEquals(170, second.stamped().size());

        List<Notification> log = ofUser(user, start);
        assertEquals(300, log.size());
        for (int i = 0; i < 300; i++) {
            assertEquals(start + 1 + i, log.get(i).seq(), "contiguous seqs");
            assertTrue(log.get(i).line().contains("\"text\":\"n" + i + "\""), "insertion order: " + log.get(i).line());
        }
        assertEquals(start + 300, lastSeq());
        assertFalse(w.tx().inTransaction(() -> w.outbox().anyPending()), "every moved row left the outbox");
    }

    @Test
    void pruningDeletesOnlyWhatIsOlderThanTheCutoffAndMovesTheMarkOnlyUp() {
        String user = "old-" + UUID.randomUUID();
        stampAll(100);
        long start = lastSeq();
        long now = System.currentTimeMillis();
        // Seq order is commit order, not time order: the young entry comes first (another instance's
        // clock may lag), so the oldest entries carry the highest seqs.
        commit(row(user, "young", now), row(user, "old-1", 1_000), row(user, "old-2", 2_000));
        stampAll(100);
        long markBefore = w.tx().inTransaction(() -> w.ledger().prunedThrough());

        int deleted = w.tx().inTransaction(() -> w.ledger().prune(now - 60_000, 1_000));

        assertTrue(deleted >= 2, "the two old entries (and any older of other tests) are gone: " + deleted);
        List<Notification> left = ofUser(user, start);
        assertEquals(1, left.size(), left.toString());
        assertTrue(left.get(0).line().contains("young"));
        long mark = w.tx().inTransaction(() -> w.ledger().prunedThrough());
        assertEquals(start + 3, mark, "the mark is the highest seq deleted: a replay from before it is told of the gap");
        assertTrue(mark > markBefore);

        assertTrue(w.tx().inTransaction(() -> w.ledger().prune(now + 1, 1_000)) >= 1, "the young entry's turn");
        assertEquals(List.of(), ofUser(user, start));
        assertEquals(mark, w.tx().inTransaction(() -> w.ledger().prunedThrough()),
                "deleting lower seqs later never moves the mark down");
    }

    @Test
    void theWebhooksReadOnlyTheMethodsTheyAskFor() {
        String user = "methods-" + UUID.randomUUID();
        stampAll(100);
        long start = lastSeq();
        commit(new OutboxRow(user, null, "turn/started", "{}", 1L), new OutboxRow(user, "t", "item/delta", "{\"d\":1}", 2L),
                new OutboxRow(user, "t", "turn/completed", "{\"ok\":true}", 3L));
        stampAll(100);

        long end = lastSeq();
        List<NotificationLog.LogEntry> entries = w.tx().inTransaction(() -> w.ledger().entriesOf(start, end,
                List.of("turn/started", "turn/completed"), 10));

        assertEquals(List.of("turn/started", "turn/completed"), entries.stream().map(NotificationLog.LogEntry::method).toList());
        assertEquals(null, entries.get(0).threadKey(), "a notification about no thread keeps its null thread");
        assertEquals("{\"ok\":true}", entries.get(1).params());
        assertEquals(List.of(start + 1, start + 3), entries.stream().map(NotificationLog.LogEntry::seq).toList());
    }
}
