package dev.switchboard.core.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.run.RunView;
import dev.switchboard.persistence.run.RunRecord;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link RunService} on a real Liberty and PostgreSQL: idempotent ingest, and the lane controller
 * (woken by each ingest) executing runs with the scripted engine, one at a time per thread.
 */
@ExtendWith(ArquillianExtension.class)
class RunServiceIT {

    private static final long WAIT_MS = 30_000;

    @Deployment
    static WebArchive deployment() {
        return ArqDeployment.create();
    }

    @Inject
    RunService service;

    @Inject
    LaneProbe probe;

    private String user;
    private final List<String> started = new ArrayList<>();

    @BeforeEach
    void cleanSlate() {
        probe.clear();
        user = "user-" + UUID.randomUUID();
        started.clear();
    }

    /** Leaves no run behind that the lane controller is still working on when the next test clears the tables. */
    @AfterEach
    void awaitStartedRuns() throws Exception {
        for (String runId : started) {
            awaitTerminal(runId);
        }
    }

    @Test
    void theSameKeyAndPayloadReturnTheSameRun() throws Exception {
        MessageCommand command = message("thread-a", "hello", "key-1");
        IngestOutcome first = ingest(command);
        assertFalse(first.deduplicated());

        IngestOutcome again = service.ingest(command);
        assertTrue(again.deduplicated());
        assertEquals(first.run().runId(), again.run().runId());
        assertEquals(first.threadId(), again.threadId());

        IngestOutcome sameValues = service.ingest(message("thread-a", "hello", "key-1"));
        assertTrue(sameValues.deduplicated(), "equal commands, not the same object");
        assertEquals(first.run().runId(), sameValues.run().runId());
        assertEquals(1, probe.runsOf(first.threadId()).size(), "one run for one key");

        RunView done = awaitTerminal(first.run().runId());
        IngestOutcome afterCompletion = service.ingest(command);
        assertTrue(afterCompletion.deduplicated());
        assertEquals("succeeded", afterCompletion.run().status(), "the key names the finished run");
        assertEquals(done.outputJson(), afterCompletion.run().outputJson());
        assertEquals(1, probe.runsOf(first.threadId()).size());
    }

    @Test
    void theSameKeyWithAnotherPayloadIsAConflict() throws Exception {
        IngestOutcome first = ingest(message("thread-b", "hello", "key-2"));

        IdempotencyConflictException otherText = assertThrows(IdempotencyConflictException.class,
                () -> service.ingest(message("thread-b", "something else", "key-2")));
        assertEquals(first.run().runId(), otherText.runId());
        IdempotencyConflictException otherMode = assertThrows(IdempotencyConflictException.class,
                () -> service.ingest(new MessageCommand(user, "arquillian", "thread-b", null, "hello", "steer",
                        "key-2")));
        assertEquals(first.run().runId(), otherMode.runId());
        assertEquals(1, probe.runsOf(first.threadId()).size(), "a conflict stores nothing");

        // The key is scoped to (user, source, key): another source or no key makes a new run.
        IngestOutcome otherSource = ingest(new MessageCommand(user, "other-source", "thread-b", null,
                "something else", "followUp", "key-2"));
        assertFalse(otherSource.deduplicated());
        assertNotEquals(first.run().runId(), otherSource.run().runId());
        IngestOutcome noKey = ingest(message("thread-b", "hello", null));
        assertFalse(noKey.deduplicated());
        assertEquals(3, probe.runsOf(first.threadId()).size());
    }

    @Test
    void theLaneControllerExecutesIngestedRunsOneAtATimeInOrder() throws Exception {
        IngestOutcome first = ingest(message("thread-c", "sleep 200; one", null));
        String a = first.run().runId();
        String b = ingest(message("thread-c", "two", null)).run().runId();
        String c = ingest(message("thread-c", "fail the script says no", null)).run().runId();
        String d = ingest(message("thread-c", "four", null)).run().runId();

        RunView one = awaitTerminal(a);
        assertEquals("succeeded", one.status());
        assertTrue(one.outputJson().contains("\"text\":\"one\""), one.outputJson());
        assertEquals("succeeded", awaitTerminal(b).status());
        RunView failed = awaitTerminal(c);
        assertEquals("failed", failed.status());
        assertEquals("the script says no", failed.errorMessage());
        assertEquals("succeeded", awaitTerminal(d).status());

        List<RunRecord> lane = probe.runsOf(first.threadId());
        assertEquals(4, lane.size());
        for (int i = 1; i < lane.size(); i++) {
            RunRecord before = lane.get(i - 1);
            RunRecord after = lane.get(i);
            assertEquals(before.getThreadSeq() + 1, after.getThreadSeq());
            assertNotNull(after.getStartedAt());
            assertTrue(after.getStartedAt() >= before.getFinishedAt(),
                    "run " + after.getThreadSeq() + " started before run " + before.getThreadSeq() + " finished");
            assertEquals(1, after.getAttempt());
        }
        assertNull(probe.thread(first.threadId()).getLeaseOwner(), "an idle lane holds no lease");
    }

    // ---------------------------------------------------------------- helpers

    private MessageCommand message(String threadKey, String text, String idempotencyKey) {
        return new MessageCommand(user, "arquillian", threadKey, null, text, "followUp", idempotencyKey);
    }

    private IngestOutcome ingest(MessageCommand command) {
        IngestOutcome outcome = service.ingest(command);
        started.add(outcome.run().runId());
        return outcome;
    }

    private RunView awaitTerminal(String runId) throws Exception {
        Optional<RunView> run = service.awaitTerminal(user, runId, WAIT_MS).toCompletableFuture()
                .get(WAIT_MS + 5_000, TimeUnit.MILLISECONDS);
        RunView view = run.orElseThrow(() -> new AssertionError("no run " + runId));
        assertTrue(view.isTerminal(), "run " + runId + " still " + view.state() + " after " + WAIT_MS + " ms");
        return view;
    }
}
