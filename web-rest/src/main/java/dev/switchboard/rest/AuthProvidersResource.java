package dev.switchboard.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * jagc's {@code GET /v1/auth/providers}. The built-in engines need no model-provider credentials,
 * so the list is empty (jagc's CLI and smoke flow expect an array, not 501).
 */
@Path("/v1/auth/providers")
public class AuthProvidersResource {

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String providers() {
        return "{\"providers\":[]}";
    }
}
