package dev.switchboard.rest;

import dev.switchboard.core.engine.EngineSelector;
import dev.switchboard.core.engine.ModelProvider;
import dev.switchboard.core.json.Jsons;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * jagc's {@code GET /v1/auth/providers}: the model providers of this instance's engine, with
 * whether a credential is configured — never the credential. The echo and scripted engines call
 * none, so their list is empty (jagc's CLI and smoke flow expect an array, not 501).
 */
@Path("/v1/auth/providers")
public class AuthProvidersResource {

    @Inject
    EngineSelector engines;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String providers() {
        JsonArrayBuilder providers = Jsons.createArrayBuilder();
        for (ModelProvider p : engines.engine().providers()) {
            JsonObjectBuilder entry = Jsons.createObjectBuilder()
                    .add("provider", p.provider())
                    .add("has_auth", p.hasAuth());
            p.credentialType().ifPresentOrElse(type -> entry.add("credential_type", type),
                    () -> entry.addNull("credential_type"));
            providers.add(entry.add("oauth_supported", false)
                    .add("env_var_hint", p.envVarHint())
                    .add("total_models", p.totalModels())
                    .add("available_models", p.availableModels()));
        }
        return Jsons.createObjectBuilder().add("providers", providers).build().toString();
    }
}
