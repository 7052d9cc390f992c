package dev.switchboard.rest.responses;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Path;

/**
 * Every route of {@link ResponsesResource} under {@code /responses} as under {@code /v1/responses}
 * (the resource methods and their annotations are inherited), so a client's base URL may end
 * before {@code /v1}; the WebSocket transport is at both too ({@link ResponsesSocketPaths}).
 */
@Path("/responses")
@ApplicationScoped
public class ResponsesAliasResource extends ResponsesResource {
}
