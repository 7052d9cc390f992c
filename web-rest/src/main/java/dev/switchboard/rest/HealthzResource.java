package dev.switchboard.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** jagc's liveness probe; MicroProfile Health serves the detailed checks at /health. */
@Path("/healthz")
public class HealthzResource {

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String ok() {
        return "{\"ok\":true}";
    }
}
