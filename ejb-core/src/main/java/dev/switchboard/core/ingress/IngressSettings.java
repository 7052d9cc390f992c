package dev.switchboard.core.ingress;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Ingress settings, from MicroProfile Config. */
@ApplicationScoped
public class IngressSettings {

    /** GitHub webhook secret; when set, deliveries must carry a valid {@code X-Hub-Signature-256}. */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.github.secret")
    Optional<String> githubSecret;

    /** The user that owns webhook deliveries authenticated by signature. */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.user", defaultValue = "local")
    String user;

    /** Repository assumed for deliveries that name none (Holon's {@code --repo}). */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.repo-hint")
    Optional<String> repoHint;

    /** Largest accepted body (Holon: 10 MiB). */
    @Inject
    @ConfigProperty(name = "switchboard.ingress.max-body-bytes", defaultValue = "10485760")
    long maxBodyBytes;

    public Optional<String> githubSecret() {
        return githubSecret.map(String::strip).filter(s -> !s.isEmpty());
    }

    public String user() {
        return user;
    }

    public String repoHint() {
        return repoHint.orElse("");
    }

    public long maxBodyBytes() {
        return maxBodyBytes;
    }
}
