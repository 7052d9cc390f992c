package dev.switchboard.core.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.lane.LaneController;
import dev.switchboard.core.lane.RunAttempt;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.RunService;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.EngineTrace;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Defect 1 of the late-owner issue, in the container with the real lane controller: an owner
 * stalled past its own lease, and a new message for the thread arrived on the same instance. The
 * ingest reclaims the run as attempt 2 and starts it here while attempt 1 still executes. Attempt 1
 * must be stopped before attempt 2's engine starts (no two engine calls of the thread at work at
 * once, as the engine's own journal shows), and its end must not take attempt 2's place: attempt 2
 * stays registered, its lease keeps being renewed, and it records the result.
 */
@ExtendWith(ArquillianExtension.class)
class LaneTakeoverIT {

    private static final Duration TWENTY_SECONDS = Duration.ofSeconds(20);

    @Deployment
    static WebArchive deployment() {
        return ArqDeployment.create();
    }

    @Inject
    RunService runs;

    @Inject
    LaneController lanes;

    @Inject
    LaneProbe probe;

    @Test
    void aRunReclaimedOnItsOwnInstanceStopsTheOlderAttemptAndKeepsTheNewerOneAlive() throws Exception {
        String user = "takeover-" + UUID.randomUUID();
        IngestOutcome first = runs.ingest(new MessageCommand(user, "arquillian", "lane", null, "sleep 2500; first",
                "followUp", null));
        String runId = first.run().runId();
        RunAttempt attempt1 = new RunAttempt(runId, 1);
        RunAttempt attempt2 = new RunAttempt(runId, 2);
        Await.until(TWENTY_SECONDS, () -> lanes.executing().contains(attempt1), "attempt 1 executes here");

        assertEquals(1, probe.expireLease(first.threadId()), "the owner's own lease expired (a stall)");
        IngestOutcome second = runs.ingest(new MessageCommand(user, "arquillian", "lane", null, "second",
                "followUp", null));
        Await.until(TWENTY_SECONDS, () -> lanes.executing().contains(attempt2), "the ingest reclaimed the run as attempt 2 here");
        Await.until(TWENTY_SECONDS, () -> !lanes.executing().contains(attempt1), "attempt 1 was stopped when attempt 2 was claimed");

        long leaseBefore = probe.thread(first.threadId()).getLeaseUntil();
        Await.until(TWENTY_SECONDS, () -> probe.thread(first.threadId()).getLeaseUntil() > leaseBefore + 400,
                "attempt 2's lease is renewed after attempt 1 ended");
        assertEquals(List.of(attempt2), lanes.executing().stream().filter(k -> k.runId().equals(runId)).toList());

        Await.until(TWENTY_SECONDS, () -> probe.run(second.run().runId()).getState() == RunState.SUCCEEDED, "the lane moved on");
        RunRecord run = probe.run(runId);
        assertEquals(RunState.SUCCEEDED, run.getState());
        assertEquals(2, run.getAttempt());
        assertEquals(1, run.getCrashes(), "the expired lease counted as one crash");

        EngineTrace trace = EngineTrace.read(List.of(journal()));
        List<EngineTrace.Call> calls = trace.callsOf(runId);
        assertEquals(2, calls.size(), "two engine calls: " + calls);
        assertEquals("cancelled", calls.get(0).outcome(), "attempt 1 was interrupted: " + calls);
        assertEquals("completed", calls.get(1).outcome());
        assertEquals(List.of(), trace.overlaps(), "no two engine calls of one thread at work at once");
        assertEquals(List.of(), trace.runsCompletedTwice());
    }

    private static Path journal() {
        return Path.of(ConfigProvider.getConfig().getValue("switchboard.engine.scripted.journal", String.class));
    }
}
