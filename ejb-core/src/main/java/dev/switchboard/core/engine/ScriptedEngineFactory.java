package dev.switchboard.core.engine;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code scripted}: the test engine driven by its input; with
 * {@code switchboard.engine.scripted.journal} (tests only) each call's start, progress and end are
 * recorded in that file.
 */
@ApplicationScoped
public class ScriptedEngineFactory implements EngineFactory {

    @Inject
    @ConfigProperty(name = "switchboard.engine.scripted.journal")
    Optional<String> journal;

    @Override
    public String name() {
        return "scripted";
    }

    /** A test engine: a thread gets it only on an instance that runs it. */
    @Override
    public boolean selectable() {
        return false;
    }

    @Override
    public AgentEngine create(EngineServices services) {
        EngineJournal recorder = journal.map(String::strip).filter(p -> !p.isEmpty())
                .map(p -> EngineJournal.to(Path.of(p), services.instanceId())).orElse(null);
        return new ScriptedEngine(services.timer(), recorder);
    }
}
