package dev.switchboard.rest.runs;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.ModelInfo;
import dev.switchboard.core.engine.ModelProvider;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.thread.RuntimeView;
import dev.switchboard.rest.errors.ApiException;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Map;

/** jagc's thread runtime and model catalogue bodies (jagc-runs spec §2.6), and their requests' checks. */
final class RuntimeJson {

    private RuntimeJson() {
    }

    /** {@code {thread_key, model:{provider,model_id,name}|null, thinking_level, supports_thinking, available_thinking_levels}}. */
    static String of(RuntimeView view) {
        JsonObjectBuilder body = Jsons.createObjectBuilder().add("thread_key", view.threadKey());
        if (view.modelId() == null) {
            body.addNull("model");
        } else {
            JsonObjectBuilder model = Jsons.createObjectBuilder().add("provider", view.provider()).add("model_id", view.modelId());
            body.add("model", view.modelName() == null ? model.addNull("name") : model.add("name", view.modelName()));
        }
        JsonArrayBuilder levels = Jsons.createArrayBuilder();
        view.availableThinkingLevels().forEach(levels::add);
        return body.add("thinking_level", view.thinkingLevel()).add("supports_thinking", view.supportsThinking())
                .add("available_thinking_levels", levels).build().toString();
    }

    /**
     * {@code GET /v1/models}: every engine a thread may choose, as a provider with its models. An
     * engine that calls a model server reports its credential as {@code /v1/auth/providers} does
     * (never the key); one that needs none (echo) has {@code has_auth: true}, no credential type.
     */
    static String catalogue(Map<String, AgentEngine> engines) {
        JsonArrayBuilder providers = Jsons.createArrayBuilder();
        for (AgentEngine engine : engines.values()) {
            ModelProvider auth = engine.providers().stream().findFirst().orElse(null);
            JsonArrayBuilder models = Jsons.createArrayBuilder();
            for (ModelInfo m : engine.models()) {
                models.add(Jsons.createObjectBuilder().add("provider", engine.name()).add("model_id", m.modelId())
                        .add("name", m.name()).add("reasoning", m.reasoning()).add("available", true));
            }
            JsonObjectBuilder p = Jsons.createObjectBuilder().add("provider", engine.name())
                    .add("has_auth", auth == null || auth.hasAuth());
            if (auth != null && auth.credentialType().isPresent()) {
                p.add("credential_type", auth.credentialType().get());
            } else {
                p.addNull("credential_type");
            }
            p.add("oauth_supported", false);
            if (auth == null) {
                p.addNull("env_var_hint");
            } else {
                p.add("env_var_hint", auth.envVarHint());
            }
            int count = engine.models().size();
            providers.add(p.add("total_models", count).add("available_models", count).add("models", models));
        }
        return Jsons.createObjectBuilder().add("providers", providers).build().toString();
    }

    /** The non-blank, trimmed string member {@code name} of a request body, or {@code code} 400. */
    static String member(JsonValue body, String name, String code) {
        if (!(body instanceof JsonObject object)) {
            throw new ApiException(400, code, "body must be a JSON object");
        }
        if (!(object.get(name) instanceof JsonString s) || s.getString().strip().isEmpty()) {
            throw new ApiException(400, code, name + " must be a non-empty string");
        }
        return s.getString().strip();
    }

}
