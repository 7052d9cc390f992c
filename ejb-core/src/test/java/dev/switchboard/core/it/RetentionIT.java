package dev.switchboard.core.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.engine.WorkspaceSettings;
import dev.switchboard.core.retention.RetentionLedger;
import dev.switchboard.core.retention.RetentionPruner;
import dev.switchboard.core.retention.RetentionRows;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.persistence.run.RunKind;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retention's statements on the database (PostgreSQL and the embedded H2): finished runs past their
 * age go with their idempotency keys and turns, by kind, younger ones and other kinds stay, and the
 * conversation history stays until its own age; each batch is bounded.
 */
@ExtendWith(ArquillianExtension.class)
class RetentionIT {

    private static final long MONTH = Duration.ofDays(31).toMillis();

    @Deployment
    static WebArchive deployment() {
        return ArqDeployment.create();
    }

    @Inject
    RunService runs;

    @Inject
    RetentionLedger ledger;

    @Inject
    RetentionProbe probe;

    @Inject
    RetentionPruner pruner;

    @Inject
    ThreadWorkspaces workspaceThreads;

    @Inject
    WorkspaceSettings workspaceSettings;

    @Test
    void agedRunsGoWithTheirKeysAndTurnsWhileTheHistoryAndYoungerRunsStay() throws Exception {
        String user = "user-" + UUID.randomUUID();
        String old = "old-" + UUID.randomUUID();
        String young = "young-" + UUID.randomUUID();
        List<String> oldRuns = List.of(finished(user, old, "a", "k-1"), finished(user, old, "b", "k-2"),
                finished(user, old, "c", null));
        finished(user, young, "d", "k-3");
        assertEquals(3, probe.ageRuns(user, old, MONTH));
        assertEquals(2, probe.count("message_ingest", user, old));
        long items = probe.count("thread_items", user, old);
        assertTrue(items >= 3, "each run left its items: " + items);

        long cutoff = probe.now() - Duration.ofDays(30).toMillis();
        assertEquals(0, ledger.pruneRuns(RunKind.EVENT, Long.MIN_VALUE, cutoff, 100).size(), "another kind: nothing of it is old");
        assertEquals(3, probe.count("runs", user, old));

        List<RetentionRows.AgedRun> first = ledger.pruneRuns(RunKind.MESSAGE, Long.MIN_VALUE, cutoff, 2);
        assertTrue(first.size() <= 2, "a batch is bounded");
        drain(cutoff);
        assertEquals(0, probe.count("runs", user, old), "the aged runs are gone");
        assertEquals(0, probe.count("turns", user, old), "with their turns");
        assertEquals(1, probe.keys(user), "and their idempotency keys: only the young run's is left");
        assertEquals(1, probe.count("runs", user, young), "the young thread's run stays");
        assertEquals(1, probe.count("turns", user, young));
        assertEquals(items, probe.count("thread_items", user, old), "the conversation history has its own age");
        for (String runId : oldRuns) {
            assertTrue(runs.find(user, runId).isEmpty(), "run " + runId + " cannot be read any more");
        }

        String again = finished(user, old, "a", "k-1");
        assertNotEquals(oldRuns.get(0), again, "a key whose run went is new again");

        long youngItems = probe.count("thread_items", user, young);
        long withNew = probe.count("thread_items", user, old);
        assertTrue(withNew > items, "the new run added to the kept history");
        assertEquals(withNew, probe.ageItems(user, old, MONTH));
        long afterItem = 0;
        List<Long> gone;
        while ((gone = ledger.pruneItems(afterItem, cutoff, 2)).size() == 2) { // batches of two until one comes back short
            afterItem = gone.get(1);
        }
        assertEquals(0, probe.count("thread_items", user, old), "every aged item went, in bounded batches");
        assertEquals(youngItems, probe.count("thread_items", user, young), "the young thread's history stays");
    }

    @Test
    void anIdleThreadsWorkspaceIsRetiredAndItsNextTurnStartsAFreshOne() throws Exception {
        String user = "user-" + UUID.randomUUID();
        String idle = "idle-" + UUID.randomUUID();
        String busy = "busy-" + UUID.randomUUID();
        workspaceThreads.enable(user, idle);
        workspaceThreads.enable(user, busy);
        finished(user, idle, "one", null);
        finished(user, busy, "two", null);
        probe.ageRuns(user, idle, MONTH);
        long idleId = probe.ageThread(user, idle, MONTH);
        long busyId = probe.ageThread(user, busy, MONTH); // old, but with a run of today
        Path idleDir = workspaceSettings.workspaces().threadDir(idleId);
        Path busyDir = workspaceSettings.workspaces().threadDir(busyId);
        assertTrue(Files.isDirectory(idleDir) && Files.isDirectory(busyDir), "each turn worked in its repository");

        long cutoff = probe.now() - Duration.ofDays(30).toMillis();
        assertTrue(pruner.retireIdleWorkspaces(cutoff, Long.MAX_VALUE) >= 1);
        assertFalse(Files.exists(idleDir), "the idle thread's repository is gone");
        assertEquals("", probe.workspaceHead(idleId), "its line is back at the start");
        assertTrue(Files.isDirectory(busyDir), "a thread with a recent run keeps its repository");
        assertEquals(0, pruner.retireIdleWorkspaces(cutoff, Long.MAX_VALUE),
                "nothing left to retire: a retired workspace is passed over");

        finished(user, idle, "again", null);
        assertTrue(Files.isDirectory(idleDir), "the next turn started a fresh repository");
    }

    private void drain(long cutoff) {
        long after = Long.MIN_VALUE;
        List<RetentionRows.AgedRun> batch;
        while (!(batch = ledger.pruneRuns(RunKind.MESSAGE, after, cutoff, 100)).isEmpty()) {
            after = batch.get(batch.size() - 1).createdAt(); // each batch after the last, as the passes go
        }
    }

    private String finished(String user, String thread, String text, String key) throws Exception {
        IngestOutcome outcome = runs.ingest(new MessageCommand(user, "http", thread, null, text, "followUp", key));
        String runId = outcome.run().runId();
        assertTrue(runs.awaitTerminal(user, runId, 30_000).toCompletableFuture().get(40, TimeUnit.SECONDS)
                .orElseThrow().isTerminal());
        return runId;
    }
}
