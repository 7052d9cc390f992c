package dev.switchboard.core.engine.model;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
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
}
