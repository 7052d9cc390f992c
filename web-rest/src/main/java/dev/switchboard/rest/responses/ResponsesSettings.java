package dev.switchboard.rest.responses;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The limits of {@code /v1/responses} over HTTP and WebSocket. */
@ApplicationScoped
public class ResponsesSettings {

    @Inject
    @ConfigProperty(name = "switchboard.responses.max-body-bytes", defaultValue = "8388608")
    long maxBodyBytes;

    /** How long a request waits for its response before answering it as it stands ({@code in_progress}). */
    @Inject
    @ConfigProperty(name = "switchboard.runs.timeout-ms", defaultValue = "600000")
    long runTimeoutMs;

    /** A WebSocket connection's lifetime (spec §9: 60 minutes). */
    @Inject
    @ConfigProperty(name = "switchboard.responses.websocket-lifetime-ms", defaultValue = "3600000")
    long socketLifetimeMs;

    /** Requests a WebSocket connection may have waiting behind the one in flight. */
    @Inject
    @ConfigProperty(name = "switchboard.responses.websocket-queue", defaultValue = "16")
    int socketQueue;

    @PostConstruct
    void validate() {
        if (maxBodyBytes < 1024 || maxBodyBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("switchboard.responses.max-body-bytes must be between 1024 and "
                    + Integer.MAX_VALUE + ", was " + maxBodyBytes);
        }
        if (socketLifetimeMs < 1_000) {
            throw new IllegalArgumentException("switchboard.responses.websocket-lifetime-ms must be at least 1000, was "
                    + socketLifetimeMs);
        }
        if (socketQueue < 0 || socketQueue > 1_000) {
            throw new IllegalArgumentException("switchboard.responses.websocket-queue must be between 0 and 1000, was "
                    + socketQueue);
        }
    }

    public long maxBodyBytes() {
        return maxBodyBytes;
    }

    public long runTimeoutMs() {
        return runTimeoutMs;
    }

    public long socketLifetimeMs() {
        return socketLifetimeMs;
    }

    public int socketQueue() {
        return socketQueue;
    }
}
