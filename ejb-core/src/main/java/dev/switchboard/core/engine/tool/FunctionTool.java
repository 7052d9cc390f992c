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

    /**
     * As {@link #call(JsonObject)}, with the user's secret the tool was configured to need
     * ({@code credential} null: none). A tool that uses no credential ignores it.
     */
    default CompletionStage<String> call(JsonObject arguments, String credential) {
        return call(arguments);
    }
}
