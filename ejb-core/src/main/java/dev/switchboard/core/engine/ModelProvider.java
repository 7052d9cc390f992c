package dev.switchboard.core.engine;

import java.util.Optional;

/**
 * A model provider an engine calls, as jagc's {@code GET /v1/auth/providers} lists it: its name,
 * whether a credential is configured and of what kind — never the credential itself — where it is
 * configured, and how many models it offers.
 */
public record ModelProvider(String provider, boolean hasAuth, Optional<String> credentialType, String envVarHint,
        int totalModels, int availableModels) {
}
