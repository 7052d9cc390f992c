package dev.switchboard.core.engine.tool;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** {@code echo_tool}: answers its {@code text} argument — a tool whose result tests can predict. */
public final class EchoTool implements FunctionTool {

    @Override
    public String name() {
        return "echo_tool";
    }

    @Override
    public String description() {
        return "Returns the given text unchanged.";
    }

    @Override
    public JsonObject parameters() {
        return Jsons.createObjectBuilder().add("type", "object")
                .add("properties", Jsons.createObjectBuilder().add("text", Jsons.createObjectBuilder()
                        .add("type", "string").add("description", "The text to return.")))
                .add("required", Jsons.createArrayBuilder().add("text"))
                .add("additionalProperties", false)
                .build();
    }

    @Override
    public CompletionStage<String> call(JsonObject arguments) {
        return CompletableFuture.completedFuture(arguments.get("text") instanceof jakarta.json.JsonString s
                ? s.getString() : arguments.get("text").toString());
    }
}
