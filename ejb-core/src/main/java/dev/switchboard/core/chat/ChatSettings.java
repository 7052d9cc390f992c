package dev.switchboard.core.chat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The chat gateway's settings, from MicroProfile Config. */
@ApplicationScoped
public class ChatSettings {

    @Inject
    @ConfigProperty(name = "switchboard.chat.session-idle-timeout-s", defaultValue = "604800")
    long sessionIdleTimeoutS;

    @Inject
    @ConfigProperty(name = "switchboard.chat.prune-every-ms", defaultValue = "600000")
    long pruneEveryMs;

    /** A session idle longer than this is pruned (spec §2.5; default 7 days). */
    public Duration sessionIdleTimeout() {
        return Duration.ofSeconds(Math.max(1, sessionIdleTimeoutS));
    }

    /** How often one instance looks for idle sessions (default 10 minutes; the first look is one period after start). */
    public long pruneEveryMs() {
        return Math.max(100, pruneEveryMs);
    }
}
