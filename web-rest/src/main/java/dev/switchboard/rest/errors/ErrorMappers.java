package dev.switchboard.rest.errors;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Maps every exception a JAX-RS request can raise onto the error envelope (jagc J11): the
 * framework's own (an unknown route, a wrong method or media type) here, the rest through
 * {@link ErrorAnswer}, which the servlet doors use too.
 */
public final class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class.getName());

    private ErrorMappers() {
    }

    /**
     * Framework errors: an unknown route or a wrong method is 404 {@code route_not_found} (as
     * jagc/Fastify) — except on the ingress paths, where a wrong method is 405
     * {@code method_not_allowed} (Holon §9.1); an unsupported content type 415; other statuses
     * keep their code.
     */
    @Provider
    public static class Framework implements ExceptionMapper<WebApplicationException> {

        @Context
        UriInfo uri;

        @Override
        public Response toResponse(WebApplicationException e) {
            if (e instanceof NotAllowedException && uri != null && isIngress(uri.getPath())) {
                return Response.fromResponse(ErrorBody.response(405, "method_not_allowed", "use POST"))
                        .header(HttpHeaders.ALLOW, HttpMethod.POST).build();
            }
            if (e instanceof NotFoundException || e instanceof NotAllowedException) {
                return ContainerErrors.forStatus(404).response();
            }
            if (e instanceof NotSupportedException) {
                return ContainerErrors.forStatus(415).response();
            }
            if (e instanceof NotAcceptableException) {
                return ContainerErrors.forStatus(406).response();
            }
            int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
            if (status >= 500) {
                LOG.log(Level.SEVERE, "Request failed", e);
            }
            // The runtime's own message (with its message id and the offending input) stays in the log.
            return ContainerErrors.forStatus(status).response();
        }
    }

    private static boolean isIngress(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.startsWith("ingress/") || p.equals("webhook");
    }

    /**
     * Everything else a request raises — a refusal it earned, a full queue or pool, an idempotency
     * conflict, a database failure, a bug — answered as {@link ErrorAnswer} says.
     */
    @Provider
    public static class Answered implements ExceptionMapper<Throwable> {
        @Override
        public Response toResponse(Throwable e) {
            return ErrorAnswer.of(e).response();
        }
    }
}
