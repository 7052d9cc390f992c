package dev.switchboard.core.engine.tool;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The function tools an engine offers the model, by name. {@link #call} never fails: an unknown
 * tool, arguments that are not a JSON object or lack a required property, and a tool's own failure
 * all become an output starting with {@code error:} — the model reads it and may try again, the
 * run goes on.
 */
public final class ToolBox {

    /** No tools: the model is offered none. */
    public static final ToolBox EMPTY = new ToolBox(List.of());

    private final Map<String, FunctionTool> tools = new LinkedHashMap<>();

    public ToolBox(List<FunctionTool> tools) {
        for (FunctionTool tool : tools) {
            if (this.tools.putIfAbsent(tool.name(), tool) != null) {
                throw new IllegalArgumentException("tool " + tool.name() + " is declared twice");
            }
        }
    }

    /**
     * The built-in tools named in {@code names}, in that order.
     *
     * @param httpGet makes {@code http_get} (it needs its allow-list), asked only when named
     */
    public static ToolBox builtIn(List<String> names, Clock clock, Function<String, FunctionTool> httpGet) {
        return new ToolBox(names.stream().map(name -> switch (name) {
            case "current_time" -> new CurrentTimeTool(clock);
            case "echo_tool" -> new EchoTool();
            case "http_get" -> httpGet.apply(name);
            default -> throw new IllegalArgumentException("unknown tool '" + name
                    + "' (built in: current_time, echo_tool, http_get)");
        }).toList());
    }

    /** These tools and {@code more}'s (a name in both is a mistake: {@link IllegalArgumentException}). */
    public ToolBox with(ToolBox more) {
        List<FunctionTool> all = new java.util.ArrayList<>(tools.values());
        all.addAll(more.tools.values());
        return new ToolBox(all);
    }

    public boolean isEmpty() {
        return tools.isEmpty();
    }

    public List<FunctionTool> tools() {
        return List.copyOf(tools.values());
    }

    /** The tools as Open Responses function tool declarations. */
    public JsonArrayBuilder declarations() {
        JsonArrayBuilder array = Jsons.createArrayBuilder();
        for (FunctionTool tool : tools.values()) {
            array.add(Jsons.createObjectBuilder().add("type", "function").add("name", tool.name())
                    .add("description", tool.description()).add("parameters", tool.parameters()).add("strict", false));
        }
        return array;
    }

    /** Calls {@code name} with {@code argumentsJson}; completes with its output (an {@code error: …} text on failure). */
    public CompletionStage<String> call(String name, String argumentsJson) {
        return call(name, argumentsJson, null);
    }

    /** As {@link #call(String, String)}, the tool given the user's {@code credential} (null: none). */
    public CompletionStage<String> call(String name, String argumentsJson, String credential) {
        FunctionTool tool = tools.get(name);
        if (tool == null) {
            return CompletableFuture.completedFuture("error: no tool named " + name);
        }
        JsonObject arguments;
        try (JsonReader reader = Jsons.createReader(new StringReader(
                argumentsJson == null || argumentsJson.isBlank() ? "{}" : argumentsJson))) {
            arguments = reader.readObject();
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture("error: the arguments are not a JSON object");
        }
        JsonValue required = tool.parameters().get("required");
        if (required != null && required.getValueType() == JsonValue.ValueType.ARRAY) {
            for (JsonValue property : required.asJsonArray()) {
                String key = ((JsonString) property).getString();
                if (!arguments.containsKey(key)) {
                    return CompletableFuture.completedFuture("error: missing required argument " + key);
                }
            }
        }
        CompletionStage<String> output;
        try {
            output = tool.call(arguments, credential);
        } catch (RuntimeException e) {
            output = CompletableFuture.failedFuture(e);
        }
        return output.handle((text, error) -> error == null ? text : "error: " + message(error));
    }

    private static String message(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && (cause instanceof java.util.concurrent.CompletionException)) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }
}
