package dev.switchboard.core.rpc;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lane.InstanceBeacon;
import dev.switchboard.core.runtime.LogJournal;
import dev.switchboard.core.runtime.RuntimeStatus;
import dev.switchboard.core.runtime.RuntimeService;
import dev.switchboard.core.user.Authenticator;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Instant;

/**
 * The {@code server/*} methods ({@link RpcMethods}; Holon's {@code holon/*}): the user's runtime —
 * its status, pausing and resuming it, its log — and the cluster's instances.
 */
@ApplicationScoped
public class ServerMethods {

    @EJB
    RuntimeService runtime;

    @Inject
    Authenticator authenticator;

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
}
