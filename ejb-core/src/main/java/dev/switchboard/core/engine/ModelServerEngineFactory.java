package dev.switchboard.core.engine;

import dev.switchboard.core.engine.model.ChatCompletionsWire;
import dev.switchboard.core.engine.model.ModelWire;
import dev.switchboard.core.engine.model.ResponsesWire;
import dev.switchboard.core.engine.tool.HttpGetTool;
import dev.switchboard.core.engine.tool.ToolBox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code openresponses}: a model server speaking Open Responses or chat completions, configured by
 * {@code switchboard.engine.openresponses.*} ({@code SWITCHBOARD_ENGINE_OPENRESPONSES_BASE_URL},
 * {@code _API}, {@code _API_KEY}, {@code _MODEL}, {@code _INSTRUCTIONS}, {@code _TIMEOUT_MS},
 * {@code _MAX_OUTPUT_TOKENS}, {@code _RETRIES}, {@code _MAX_TOOL_STEPS}) and the function tools of
 * {@code switchboard.tools} ({@code SWITCHBOARD_TOOLS}, {@code SWITCHBOARD_TOOLS_HTTP_GET_ALLOW});
 * the base URL is required when it is chosen.
 */
@ApplicationScoped
public class ModelServerEngineFactory implements EngineFactory {

    /** Who decides whether a tool call may run (the chat gateway's approvals, when deployed). */
    @Inject
    Instance<ToolApprovals> approvals;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.base-url")
    Optional<String> baseUrl;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.api", defaultValue = "responses")
    String api;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.api-key")
    Optional<String> apiKey;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.model", defaultValue = "default")
    String model;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.instructions")
    Optional<String> instructions;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.timeout-ms", defaultValue = "120000")
    long timeoutMs;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.max-output-tokens")
    Optional<Integer> maxOutputTokens;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.retries", defaultValue = "3")
    int retries;

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.max-tool-steps", defaultValue = "8")
    int maxToolSteps;

    /** The models a thread may choose besides the default ({@code model} is always first). */
    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.models")
    Optional<List<String>> models;

    @Inject
    @ConfigProperty(name = "switchboard.tools")
    Optional<List<String>> tools;

    @Inject
    @ConfigProperty(name = "switchboard.tools.http-get.allow")
    Optional<List<String>> httpGetAllow;

    @Override
    public String name() {
        return "openresponses";
    }

    /** Selectable by threads when a model server is configured. */
    @Override
    public boolean selectable() {
        return baseUrl.map(String::strip).filter(u -> !u.isEmpty()).isPresent();
    }

    @Override
    public AgentEngine create(EngineServices services) {
        URI base = URI.create(baseUrl.map(String::strip).filter(u -> !u.isEmpty()).orElseThrow(() ->
                new IllegalStateException("switchboard.engine.openresponses.base-url is required with the openresponses engine")));
        if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
            throw new IllegalStateException("switchboard.engine.openresponses.base-url must be an http or https URL");
        }
        if (timeoutMs < 1 || retries < 0 || maxToolSteps < 0 || maxOutputTokens.filter(m -> m < 1).isPresent()) {
            throw new IllegalStateException("switchboard.engine.openresponses: timeout-ms and max-output-tokens must be"
                    + " positive, retries and max-tool-steps at least 0");
        }
        ModelWire wire = switch (api.strip()) {
            case "responses" -> new ResponsesWire();
            case "chat-completions" -> new ChatCompletionsWire();
            default -> throw new IllegalStateException("switchboard.engine.openresponses.api must be responses or"
                    + " chat-completions, was '" + api + "'");
        };
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        ToolBox toolBox;
        try {
            toolBox = ToolBox.builtIn(tools.orElse(List.of()).stream().map(String::strip).filter(t -> !t.isEmpty()).toList(),
                    Clock.systemUTC(), name -> new HttpGetTool(httpGetAllow.orElseThrow(() -> new IllegalArgumentException(
                            "http_get needs switchboard.tools.http-get.allow (the URL prefixes it may fetch)")),
                            client, Duration.ofSeconds(10)));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("switchboard.tools: " + e.getMessage(), e);
        }
        return new ModelServerEngine(new ModelServerEngine.Settings(base, apiKey.filter(k -> !k.isBlank()), model,
                instructions.filter(i -> !i.isBlank()), Duration.ofMillis(timeoutMs), maxOutputTokens, retries, wire,
                toolBox, maxToolSteps, approvals.isResolvable() ? approvals.get() : ToolApprovals.NONE_NEEDED,
                java.util.stream.Stream.concat(java.util.stream.Stream.of(model),
                        models.orElse(List.of()).stream().map(String::strip).filter(m -> !m.isEmpty())).distinct().toList()),
                client, services.timer());
    }
}
