package dev.switchboard.core.webhook;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.NotificationLedger;
import dev.switchboard.core.notify.NotificationLog.LogEntry;
import dev.switchboard.core.notify.Outbox;
import dev.switchboard.core.turn.TurnRuns;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The delivery side's transactions: making messages from the log, taking them, and ending attempts. */
@Stateless
public class WebhookLedger {

    /** Log entries per fan-out transaction. */
    static final int FANOUT_BATCH = 500;

    @EJB
    NotificationLedger log;

    @Inject
    WebhookEndpoints endpoints;

    @Inject
    WebhookMessages messages;

    @Inject
    TurnRuns turns;

    @Inject
    Outbox outbox;

    /** A message taken for attempt number {@code attempt}, with its endpoint. */
    public record Claimed(WebhookMessage message, Endpoint endpoint, int attempt) {
    }

    /** What an attempt came to. */
    public record Result(Integer status, long latencyMs, String outcome, String response) {

        boolean isDelivered() {
            return WebhookAttempt.DELIVERED.equals(outcome);
        }
    }

    /**
     * Turns the next entries of the log into messages, in one transaction with the cursor, which
     * it holds locked (one instance at a time). With no endpoint enabled anywhere it only moves the
     * cursor: registering one later hears what happens from then on.
     */
    public FanOut fanOut(long now, EventMessages events) {
        long cursor = messages.lockCursor();
        long end = log.lastSeq();
        if (end <= cursor) { // the poll's usual answer, on every instance: no endpoint is read for it
            return new FanOut(false, endpoints.anyEnabled());
        }
        List<Endpoint> enabled = endpoints.enabled();
        if (enabled.isEmpty()) {
            messages.moveCursor(end);
            return new FanOut(false, false);
        }
        Map<String, List<Endpoint>> byUser = enabled.stream().collect(Collectors.groupingBy(Endpoint::userKey));
        List<LogEntry> entries = log.entriesOf(cursor, end, WebhookEvents.METHODS, FANOUT_BATCH);
        List<WebhookMessage> made = new ArrayList<>();
        Map<String, List<TurnRuns.TurnRun>> runs = new HashMap<>();
        for (LogEntry entry : entries) {
            made.addAll(events.of(entry, byUser.getOrDefault(entry.userKey(), List.of()),
                    turn -> runs.computeIfAbsent(turn, turns::runEnds), now));
        }
        messages.insert(made);
        boolean more = entries.size() == FANOUT_BATCH;
        messages.moveCursor(more ? entries.get(entries.size() - 1).seq() : end);
        return new FanOut(more, true);
    }

    /** Whether log entries were left for another fan-out, and whether any endpoint was enabled. */
    public record FanOut(boolean more, boolean endpoints) {
    }

    /** Takes up to {@code limit} due messages for one attempt each, for {@code lease} by the database's clock. */
    public List<Claimed> claim(int limit, Duration lease) {
        List<Claimed> claimed = new ArrayList<>();
        Map<String, Endpoint> byId = new HashMap<>();
        for (WebhookMessage m : messages.due(limit, endpoints.disabledIds())) {
            // Read before the claim: an endpoint deleted or disabled since the page was read is
            // skipped without spending one of the message's attempts.
            Endpoint endpoint = byId.computeIfAbsent(m.endpointId(), endpoints::byId);
            if (endpoint != null && endpoint.enabled() && messages.claim(m, lease.toMillis())) {
                claimed.add(new Claimed(m, endpoint, m.attempts() + 1));
            }
        }
        return claimed;
    }

    /**
     * Logs the attempt and moves the message on: delivered; or due again after the schedule's next
     * wait; or, after its last attempt, failed — and then its endpoint is disabled and its user
     * told ({@code webhook/disabled}), in this transaction. Nothing changes but the log when the
     * attempt is no longer the message's own. When {@code takeNext}, returns the lane's next message
     * if the delivered one's follower is due, taken for the same sender (for {@code lease}); null
     * otherwise. {@code now} is this instance's time, for the log and the end's time.
     */
    public Claimed finish(Claimed c, Result result, RetrySchedule schedule, long now, Duration lease, boolean takeNext) {
        WebhookMessage m = c.message();
        AttemptEnd end = AttemptEnd.of(result.outcome(), c.attempt(), schedule);
        messages.recordAttempt(m, c.attempt(), now, result.status(), result.latencyMs(), end.logged(), result.response());
        if (end.state().equals(WebhookMessage.DELIVERED)) {
            if (messages.finish(m.id(), c.attempt(), WebhookMessage.DELIVERED, 0, now) && takeNext) {
                return nextInLane(c, lease);
            }
        } else if (end.state().equals(WebhookMessage.PENDING)) {
            messages.finish(m.id(), c.attempt(), WebhookMessage.PENDING, end.delay().toMillis(), null);
        } else if (messages.finish(m.id(), c.attempt(), WebhookMessage.FAILED, 0, now)) {
            String reason = "message " + m.msgId() + " failed " + c.attempt() + " attempts; the last: "
                    + (result.status() != null ? "HTTP " + result.status() : result.response());
            if (endpoints.disable(c.endpoint().id(), clip(reason), now)) {
                outbox.append(c.endpoint().userKey(), null, "webhook/disabled", Jsons.createObjectBuilder()
                        .add("endpoint_id", c.endpoint().id()).add("url", c.endpoint().url())
                        .add("reason", clip(reason)).build());
            }
        }
        return null;
    }

    /**
     * The lane's next message, taken for the sender that just delivered the one before it, when it
     * is due: a thread's messages follow each other without waiting for the dispatcher's next round.
     */
    private Claimed nextInLane(Claimed done, Duration lease) {
        WebhookMessage next = messages.laneHead(done.message().endpointId(), done.message().lane());
        if (next == null || !messages.claim(next, lease.toMillis())) { // the claim takes only a due one
            return null;
        }
        return new Claimed(next, done.endpoint(), next.attempts() + 1);
    }

    /** Deletes finished messages older than {@code cutoff}, a batch; returns how many. */
    public int prune(long cutoff, int limit) {
        return messages.pruneEnded(cutoff, limit);
    }

    private static String clip(String text) {
        return text == null || text.length() <= 500 ? text : text.substring(0, 500);
    }
}
