package dev.switchboard.core.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.ingress.EventEnvelope;
import dev.switchboard.core.ingress.EventOutcome;
import dev.switchboard.core.ingress.IngressDoor;
import dev.switchboard.core.ingress.IngressService;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.runtime.RuntimeService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Dedupe keys are remembered for a configured age (H9): within it a resend is a duplicate, after
 * it the same delivery is new again; other idempotency records are not touched. Ingress records
 * are deleted after theirs, except events still held by a pause.
 */
@ExtendWith(ArquillianExtension.class)
class IngressRetentionIT {

    @Deployment
    static WebArchive deployment() {
        return ArqDeployment.create();
    }

    @Inject
    IngressService ingress;

    @Inject
    RunService runs;

    @Inject
    IngressProbe probe;

    @Inject
    RuntimeService runtime;

    private static EventEnvelope event(String repo) {
        return new EventEnvelope(IngressService.newEventId(), "ci", "ci.done", Instant.now(),
                EventEnvelope.Scope.EMPTY.withRepo(repo), new EventEnvelope.Subject("build", "1"),
                "ci:" + repo + ":build:1", null);
    }

    @Test
    void recordsPastTheirRetentionAreDeletedButHeldEventsAreKept() throws Exception {
        String user = "user-" + UUID.randomUUID();
        EventOutcome done = ingress.receive(user, IngressDoor.EVENTS, event("acme/" + UUID.randomUUID()));
        assertTrue(runs.awaitTerminal(user, done.runId(), 30_000).toCompletableFuture().get(40, TimeUnit.SECONDS)
                .orElseThrow().isTerminal());
        runtime.pause(user);
        EventOutcome held = ingress.receive(user, IngressDoor.EVENTS, event("acme/" + UUID.randomUUID()));
        try {
            assertEquals("deferred", held.status());
            assertEquals(2, probe.ageEvents(user, Duration.ofDays(31).toMillis()));
            assertTrue(probe.records(user, "actions") >= 1);

            ingress.forgetRecords(Duration.ofDays(40));
            assertEquals(2, probe.records(user, "events"), "younger than the retention: kept");

            ingress.forgetRecords(Duration.ofDays(30));
            assertEquals(1, probe.records(user, "events"), "only the held event is left");
            assertEquals(1, probe.records(user, "decisions"), "its defer_event decision");
            assertEquals(0, probe.records(user, "actions"));
        } finally {
            runtime.resume(user);
        }
        ingress.release(user);
        String runId = probe.runOf(held.eventId());
        assertTrue(runs.awaitTerminal(user, runId, 30_000).toCompletableFuture().get(40, TimeUnit.SECONDS)
                .orElseThrow().isTerminal(), "the kept event ran after the resume");
    }

    @Test
    void aDedupeKeyIsForgottenAfterItsRetentionAndOnlyThen() throws Exception {
        String user = "user-" + UUID.randomUUID();
        String repo = "acme/" + UUID.randomUUID();
        EventOutcome first = ingress.receive(user, IngressDoor.EVENTS, event(repo));
        assertEquals("accepted", first.status());
        IngestOutcome message = runs.ingest(new MessageCommand(user, "http", "t", null, "hi", "followUp", "k-1"));

        ingress.forgetDedupeKeys(Duration.ofDays(30));
        assertEquals("duplicate", ingress.receive(user, IngressDoor.EVENTS, event(repo)).status(), "a fresh key is kept");

        assertEquals(2, probe.age(user, Duration.ofDays(31).toMillis()));
        assertTrue(ingress.forgetDedupeKeys(Duration.ofDays(30)) >= 1);
        EventOutcome again = ingress.receive(user, IngressDoor.EVENTS, event(repo));
        assertEquals("accepted", again.status(), "the same delivery is new after the retention");
        assertNotEquals(first.runId(), again.runId());
        assertEquals(message.run().runId(),
                runs.ingest(new MessageCommand(user, "http", "t", null, "hi", "followUp", "k-1")).run().runId(),
                "message idempotency keys are not ingress dedupe keys");
        for (String runId : new String[] {first.runId(), again.runId(), message.run().runId()}) {
            assertTrue(runs.awaitTerminal(user, runId, 30_000).toCompletableFuture().get(40, TimeUnit.SECONDS).orElseThrow().isTerminal(),
                    "leaves no run executing for the next test");
        }
    }
}
