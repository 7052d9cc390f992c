package dev.switchboard.rest.errors;

import dev.switchboard.core.input.ServerBusy;
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
import java.net.URISyntaxException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Maps every exception a request can raise onto the error envelope (jagc J11). */
public final class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class.getName());

    private ErrorMappers() {
    }

    @Provider
    public static class Api implements ExceptionMapper<ApiException> {
        @Override
        public Response toResponse(ApiException e) {
            return ErrorBody.response(e);
        }
    }

    /** A full pool or queue: 503 {@code server_busy} at once, with when to retry. */
    @Provider
    public static class Busy implements ExceptionMapper<ServerBusy> {
        @Override
        public Response toResponse(ServerBusy e) {
            return ErrorBody.busy(503, "server_busy", e.getMessage(), e.retryAfterSeconds());
        }
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
                return ErrorBody.response(404, "route_not_found", "route not found");
            }
            if (e instanceof NotSupportedException) {
                return ErrorBody.response(415, "unsupported_media_type", "unsupported content type");
            }
            if (e instanceof NotAcceptableException) {
                return ErrorBody.response(406, "not_acceptable", "only application/json responses are available");
            }
            int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
            if (status >= 500) {
                LOG.log(Level.SEVERE, "Request failed", e);
            }
            // The runtime's own message (with its message id and the offending input) stays in the log.
            ContainerErrors.Answer answer = ContainerErrors.forStatus(status);
            return ErrorBody.response(answer.status(), answer.code(), answer.message());
        }
    }

    private static boolean isIngress(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.startsWith("ingress/") || p.equals("webhook");
    }

    /**
     * A database failure is 503 (retry, with the same idempotency key for a POST); anything else
     * is a bug on our side: logged, answered with the envelope, never a stack trace.
     */
    @Provider
    public static class Unexpected implements ExceptionMapper<Throwable> {
        @Override
        public Response toResponse(Throwable e) {
            if (databaseUnreachable(e)) {
                LOG.log(Level.WARNING, "Database failure", e);
                return ErrorBody.busy(503, "database_unavailable",
                        "the database did not answer or rolled the request back;"
                                + " retry (with the same Idempotency-Key for a message)", 1);
            }
            if (malformedUri(e)) {
                ContainerErrors.Answer answer = ContainerErrors.forStatus(400);
                return ErrorBody.response(answer.status(), answer.code(), answer.message());
            }
            if (refusedValue(e)) {
                LOG.log(Level.WARNING, "The database refused a value that passed validation", e);
                return ErrorBody.response(400, "invalid_value",
                        "a value in the request cannot be stored (too long or not valid text)");
            }
            LOG.log(Level.SEVERE, "Unexpected error", e);
            return ErrorBody.response(500, "internal_error", "request failed");
        }

        /**
         * The database is unreachable or refusing work, not our bug: SQLSTATE classes 08
         * (connection), 40 (the transaction was rolled back whole: a deadlock between transactions
         * that lock several lanes, such as two batches, or a serialization failure), 53
         * (insufficient resources, e.g. too many connections) and 57 (operator intervention:
         * shutting down, starting up), or the pool's and driver's connection exceptions.
         */
        static boolean databaseUnreachable(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                        || t instanceof SQLRecoverableException) {
                    return true;
                }
                if (t instanceof SQLException sql && sql.getSQLState() != null
                        && List.of("08", "40", "53", "57").contains(sql.getSQLState().substring(0, 2))) {
                    return true;
                }
            }
            return false;
        }

        /** The request's URI does not parse (a raw backslash in the path, say): the client's fault. */
        static boolean malformedUri(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof URISyntaxException) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The database refused a value (SQLSTATE class 22, data exception: too long, not valid in the
         * encoding, out of range): the request's fault, refused like a validation error. The
         * validation at the doors should have caught it; the warning says which check is missing.
         */
        static boolean refusedValue(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("22")) {
                    return true;
                }
            }
            return false;
        }
    }
}
