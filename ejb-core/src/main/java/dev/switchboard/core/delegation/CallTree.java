package dev.switchboard.core.delegation;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * The call tree of a unit of work, as {@code GET /v1/runs/{id}/tree} and {@code run/tree} show it:
 * one node per path, root first, each with its agent, caller, status, timings, result and the calls
 * its run made (refused ones included, which have no path). Clients see opaque path ids only;
 * operators ({@code readable}) also see the readable paths and the session root (X17).
 */
public final class CallTree {

    private CallTree() {
    }

    /**
     * @param paths the tree's paths, root first ({@link PathReads#tree})
     * @param slotsOf the call slots a path's run made
     */
    public static JsonObject of(String runId, List<PathRegistry.PathRow> paths,
            Function<String, List<CallSlots.SlotRow>> slotsOf, boolean readable) {
        JsonObjectBuilder tree = Jsons.createObjectBuilder().add("run_id", runId);
        if (paths.isEmpty()) {
            return tree.add("delegated", false).add("nodes", JsonValue.EMPTY_JSON_ARRAY).build();
        }
        if (readable) {
            tree.add("session_root", paths.get(0).sessionRoot());
        }
        tree.add("delegated", true).add("hops", paths.get(0).hops());
        JsonArrayBuilder nodes = Jsons.createArrayBuilder();
        for (PathRegistry.PathRow p : paths) {
            JsonObjectBuilder node = Jsons.createObjectBuilder().add("path_id", p.uuid())
                    .add("parent_path_id", p.parentUuid() == null ? JsonValue.NULL : Jsons.createValue(p.parentUuid()))
                    .add("depth", p.depth())
                    .add("agent", p.depth() == 0 ? JsonValue.NULL : Jsons.createValue(p.agent()))
                    .add("from", p.caller() == null ? JsonValue.NULL : Jsons.createValue(p.caller()))
                    .add("status", p.status())
                    .add("created_at", Instant.ofEpochMilli(p.createdAt()).toString())
                    .add("closed_at", p.closedAt() == null ? JsonValue.NULL : Jsons.createValue(Instant.ofEpochMilli(p.closedAt()).toString()))
                    .add("duration_ms", p.closedAt() == null ? JsonValue.NULL : Jsons.createValue(p.closedAt() - p.createdAt()));
            if (readable) {
                node.add("path", p.readable());
            }
            if (p.depth() >= 2) {
                node.add("result", p.resultText() == null ? JsonValue.NULL : Jsons.createValue(p.resultText()));
            }
            if (p.depth() > 0) {
                JsonArrayBuilder calls = Jsons.createArrayBuilder();
                for (CallSlots.SlotRow s : slotsOf.apply(p.runId())) {
                    if (s.callerUuid().equals(p.uuid())) {
                        calls.add(call(s));
                    }
                }
                node.add("calls", calls);
            }
            nodes.add(node);
        }
        return tree.add("nodes", nodes).build();
    }

    private static JsonObject call(CallSlots.SlotRow s) {
        return Jsons.createObjectBuilder().add("call", s.callIndex()).add("to", s.to())
                .add("path_id", s.childUuid() == null ? JsonValue.NULL : Jsons.createValue(s.childUuid()))
                .add("status", s.status())
                .add("from", s.from() == null ? JsonValue.NULL : Jsons.createValue(s.from()))
                .add("code", s.code() == null ? JsonValue.NULL : Jsons.createValue(s.code()))
                .add("result", s.text() == null ? JsonValue.NULL : Jsons.createValue(s.text()))
                .build();
    }
}
