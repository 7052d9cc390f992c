package dev.switchboard.core.rpc;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.InstanceBeacon;
import dev.switchboard.core.monitor.MonitorSample;
import dev.switchboard.core.monitor.MonitorSamples;
import dev.switchboard.core.monitor.MonitorSettings;
import dev.switchboard.core.runtime.LogJournal;
import dev.switchboard.core.runtime.RuntimeStatus;
import dev.switchboard.core.runtime.RuntimeService;
import dev.switchboard.core.user.Authenticator;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.List;

/**
 * The {@code server/*} methods ({@link RpcMethods}; Holon's {@code holon/*}): the user's runtime —
 * its status, pausing and resuming it, its log — the cluster's instances, and the samples its
 * instances took of what they did (the dashboard's charts).
 */
@ApplicationScoped
public class ServerMethods {

    /** Samples in one answer of {@code server/series} (about 2 MB of JSON; six hours of two instances at the default period). */
    static final int SERIES_PAGE = 5_000;

    @EJB
    RuntimeService runtime;

    @Inject
    Authenticator authenticator;

    @Inject
    MonitorSamples samples;

    @Inject
    MonitorSettings monitorSettings;

    @Inject
    InstanceClock clock;

    public JsonObject status(String userKey) {
        RuntimeStatus s = runtime.status(userKey);
        return Jsons.createObjectBuilder()
                .add("state", s.paused() ? "paused" : "running")
                .add("events_processed", s.eventsProcessed())
                .add("last_event_at", RpcJson.time(s.lastEventAt()))
                .add("session_id", s.sessionId())
                .add("paused_at", RpcJson.time(s.pausedAt()))
                .add("resumed_at", RpcJson.time(s.resumedAt()))
                .build();
    }

    public JsonObject pause(String userKey) {
        if (!runtime.pause(userKey)) {
            throw new RpcException(RpcError.internal("failed to pause: already paused"));
        }
        return RpcJson.success("Paused event processing");
    }

    public JsonObject resume(String userKey) {
        return RpcJson.success(runtime.resume(userKey) ? "Resumed event processing" : "Runtime already running");
    }

    /** The cluster's instances: every start of every instance the database heard of in the last day. */
    public JsonObject instances() {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        for (InstanceBeacon.Instance i : runtime.instances()) {
            list.add(Jsons.createObjectBuilder().add("instance", i.instanceId()).add("owner", i.owner())
                    .add("state", i.state()).add("executing_runs", i.executingRuns())
                    .add("started_at", Instant.ofEpochMilli(i.startedAt()).toString())
                    .add("heartbeat_at", Instant.ofEpochMilli(i.heartbeatAt()).toString())
                    .add("heartbeat_age_ms", i.ageMs())
                    .add("stopped_at", i.stoppedAt() == null ? JsonValue.NULL
                            : Jsons.createValue(Instant.ofEpochMilli(i.stoppedAt()).toString())));
        }
        return Jsons.createObjectBuilder().add("instances", list).build();
    }

    /** The caller's own journal entries; an operator's view is the whole server's. */
    public JsonObject logStream(String userKey, Params params) {
        int maxLines = params.bounded("max_lines", 1, 10_000, 100, "max_lines must be between 1 and 10000");
        long from = params.integer("from_position", 0);
        if (from < 0) {
            throw new RpcException(RpcError.invalidField("from_position", "from_position must not be negative"));
        }
        JsonArrayBuilder logs = Jsons.createArrayBuilder();
        for (LogJournal.Entry e : runtime.logs(userKey, authenticator.isOperator(userKey),
                (int) Math.min(Integer.MAX_VALUE, from), maxLines)) {
            logs.add(Jsons.createObjectBuilder().add("level", e.level()).add("time", e.time().toString())
                    .add("message", e.message()).add("instance", e.instance()));
        }
        return Jsons.createObjectBuilder()
                .add("stream_id", "stream_" + Instant.now().getEpochSecond())
                .add("logs", logs)
                .build();
    }

    /**
     * Every instance's samples of the last {@code minutes} (1 to the retention's, default 60), or
     * only those taken after {@code after} (epoch milliseconds, for a client that polls), oldest
     * first, at most {@value #SERIES_PAGE} a call: {@code more} says the client goes on after the
     * last one's time.
     */
    public JsonObject series(Params params) {
        int kept = (int) Math.min(Integer.MAX_VALUE, monitorSettings.retentionMs() / 60_000); // what is kept can be asked for
        int minutes = params.bounded("minutes", 1, kept, Math.min(60, kept), "minutes must be between 1 and " + kept);
        long after = params.integer("after", 0);
        if (after < 0) {
            throw new RpcException(RpcError.invalidField("after", "after must not be negative"));
        }
        long now = clock.millis();
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        List<MonitorSample> read = samples.since(Math.max(after, now - minutes * 60_000L), SERIES_PAGE + 1);
        List<MonitorSample> page = MonitorSample.firstPage(read, SERIES_PAGE);
        for (MonitorSample m : page) {
            JsonObjectBuilder o = Jsons.createObjectBuilder().add("instance", m.instance()).add("owner", m.owner())
                    .add("at", m.sampledAt()).add("interval_ms", m.intervalMs())
                    .add("runs_succeeded", m.runsSucceeded()).add("runs_failed", m.runsFailed());
            optional(o, "latency_p50_ms", m.latencyP50Ms());
            optional(o, "latency_p99_ms", m.latencyP99Ms());
            o.add("messages_accepted", m.messagesAccepted());
            optional(o, "runs_queued", m.runsQueued());
            list.add(o.add("runs_executing", m.runsExecuting()).add("subscribers", m.subscribers())
                    .add("webhooks_delivered", m.webhooksDelivered()).add("webhooks_not_delivered", m.webhooksNotDelivered())
                    .add("ingress_events", m.ingressEvents()));
        }
        return Jsons.createObjectBuilder().add("sample_ms", monitorSettings.sampleMs()).add("now", now)
                .add("samples", list).add("more", read.size() > SERIES_PAGE).build();
    }

    private static void optional(JsonObjectBuilder o, String name, Long value) {
        o.add(name, value == null ? JsonValue.NULL : Jsons.createValue(value));
    }
}
