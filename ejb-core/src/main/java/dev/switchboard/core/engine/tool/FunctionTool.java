package dev.switchboard.core.engine.tool;

import jakarta.json.JsonObject;
import java.util.concurrent.CompletionStage;

/**
 * A function the model may call. {@link #call} gets arguments that parsed as a JSON object and
 * carry the schema's required properties; it completes with the text the model reads as the
 * call's output, or exceptionally with a message the model reads as the failure. It must not
 * block the calling thread for long.
 */
public interface FunctionTool {

    String name();

    String description();

    /** A JSON schema of type {@code object}. */
    JsonObject parameters();

    CompletionStage<String> call(JsonObject arguments);
}
