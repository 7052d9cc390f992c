package dev.switchboard.rest.runs;

import dev.switchboard.core.engine.EngineSelector;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** jagc's {@code GET /v1/models}: the engines a thread may choose, as providers, and their models. */
@Path("/v1/models")
@ApplicationScoped
public class ModelsResource {

    @Inject
    EngineSelector engines;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String models() {
        return RuntimeJson.catalogue(engines.selectable());
    }
}
