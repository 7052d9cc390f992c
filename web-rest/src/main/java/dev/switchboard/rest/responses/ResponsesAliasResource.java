package dev.switchboard.rest.responses;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.InputStream;

/** {@code POST /responses} and {@code POST /responses/compact}: the same as under {@code /v1}, so a client's base URL may end before {@code /v1}. */
@Path("/responses")
@ApplicationScoped
public class ResponsesAliasResource {

    @Inject
    ResponsesResource responses;

    @POST
    public void create(@Context HttpHeaders headers, InputStream body, @Context HttpServletRequest request,
            @Context HttpServletResponse response, @Suspended AsyncResponse answer) {
        responses.createResponse(headers, body, request, response, answer);
    }

    @POST
    @Path("compact")
    public void compact(@Context HttpHeaders headers, InputStream body, @Suspended AsyncResponse answer) {
        responses.compact(headers, body, answer);
    }
}
