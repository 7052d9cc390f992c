package dev.switchboard.core.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Control-plane settings, from MicroProfile Config. */
@ApplicationScoped
public class ServeSettings {

    /** The session (thread) used when a call names none; empty means a thread is always required. */
    @Inject
    @ConfigProperty(name = "switchboard.serve.default-session")
    Optional<String> defaultSession;

    public String defaultSession() {
        return defaultSession.map(String::strip).orElse("main");
    }
}
