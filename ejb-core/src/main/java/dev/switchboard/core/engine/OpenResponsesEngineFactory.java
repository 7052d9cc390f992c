package dev.switchboard.core.engine;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code openresponses}: a model server speaking Open Responses, configured by
 * {@code switchboard.engine.openresponses.*} ({@code SWITCHBOARD_ENGINE_OPENRESPONSES_BASE_URL},
 * {@code _API_KEY}, {@code _MODEL}, {@code _INSTRUCTIONS}, {@code _TIMEOUT_MS},
 * {@code _MAX_OUTPUT_TOKENS}, {@code _RETRIES}); the base URL is required when it is chosen.
 */
@ApplicationScoped
public class OpenResponsesEngineFactory implements EngineFactory {

    @Inject
    @ConfigProperty(name = "switchboard.engine.openresponses.base-url")
    Optional<String> baseUrl;

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

    @Override
    public String name() {
        return "openresponses";
    }

    @Override
    public AgentEngine create(EngineServices services) {
        URI base = URI.create(baseUrl.map(String::strip).filter(u -> !u.isEmpty()).orElseThrow(() ->
                new IllegalStateException("switchboard.engine.openresponses.base-url is required with the openresponses engine")));
        if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
            throw new IllegalStateException("switchboard.engine.openresponses.base-url must be an http or https URL");
        }
        if (timeoutMs < 1 || retries < 0 || maxOutputTokens.filter(m -> m < 1).isPresent()) {
            throw new IllegalStateException("switchboard.engine.openresponses: timeout-ms and max-output-tokens must be"
                    + " positive, retries at least 0");
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        return new OpenResponsesEngine(new OpenResponsesEngine.Settings(base, apiKey.filter(k -> !k.isBlank()), model,
                instructions.filter(i -> !i.isBlank()), Duration.ofMillis(timeoutMs), maxOutputTokens, retries),
                client, services.timer());
    }
}
