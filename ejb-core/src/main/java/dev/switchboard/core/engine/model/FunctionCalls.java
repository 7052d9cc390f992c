package dev.switchboard.core.engine.model;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** The Open Responses items of a tool loop's steps, as stored and shown. */
public final class FunctionCalls {

    private FunctionCalls() {
    }

    /** A model's request to call {@code name} ({@code arguments}: the JSON text it wrote). */
    public static JsonObject item(String callId, String name, String arguments) {
        return Jsons.createObjectBuilder().add("type", "function_call").add("id", "fc_" + fresh())
                .add("call_id", callId.isEmpty() ? "call_" + fresh() : callId).add("name", name)
                .add("arguments", arguments).add("status", "completed").build();
    }

    /** What the tool answered to the call {@code callId}. */
    public static JsonObject output(String callId, String output) {
        return Jsons.createObjectBuilder().add("type", "function_call_output").add("id", "fco_" + fresh())
                .add("call_id", callId).add("output", output).add("status", "completed").build();
    }

    private static String fresh() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * {@code items} without the function calls that have no output among them (a tool loop a
     * person stopped, a pause that was dropped) and the outputs that have no call, so a model is
     * never sent a call it cannot see answered; the calls {@code keep} names stay (a resumption
     * answers them next).
     */
    public static List<JsonObject> answered(List<JsonObject> items, Set<String> keep) {
        Set<String> calls = new HashSet<>();
        Set<String> outputs = new HashSet<>();
        for (JsonObject item : items) {
            String type = item.getString("type", "");
            if (type.equals("function_call")) {
                calls.add(item.getString("call_id", ""));
            } else if (type.equals("function_call_output")) {
                outputs.add(item.getString("call_id", ""));
            }
        }
        List<JsonObject> kept = new ArrayList<>(items.size());
        for (JsonObject item : items) {
            String type = item.getString("type", "");
            String callId = item.getString("call_id", "");
            if (type.equals("function_call") && !outputs.contains(callId) && !keep.contains(callId)
                    || type.equals("function_call_output") && !calls.contains(callId)) {
                continue;
            }
            kept.add(item);
        }
        return kept;
    }
}
