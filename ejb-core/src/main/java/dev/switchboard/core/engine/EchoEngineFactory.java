package dev.switchboard.core.engine;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** {@code echo}: jagc's echo executor after {@code switchboard.engine.echo.delay-ms} (50 ms, as jagc). */
@ApplicationScoped
public class EchoEngineFactory implements EngineFactory {

    @Inject
    @ConfigProperty(name = "switchboard.engine.echo.delay-ms", defaultValue = "50")
    long delayMs;

    @Override
    public String name() {
        return "echo";
    }

    @Override
    public AgentEngine create(EngineServices services) {
        return new EchoEngine(delayMs, services.timer());
    }
}
