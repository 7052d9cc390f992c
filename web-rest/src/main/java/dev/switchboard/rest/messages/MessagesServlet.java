package dev.switchboard.rest.messages;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.RunJson;
import dev.switchboard.core.run.RunService;
import dev.switchboard.core.user.Authentication;
import dev.switchboard.core.user.Authenticator;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.errors.AcceptHeaderFilter;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ContainerErrors;
import dev.switchboard.rest.errors.ErrorAnswer;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code POST /v1/messages}: 202 with the run envelope once the run is committed;
 * {@code POST /v1/messages/batch}: 202 with every message's run envelope once all are committed,
 * in one transaction.
 * <p>
 * The hottest door of the server, so a plain servlet (issue 38): the JAX-RS runtime around a
 * request — its matching, its provider chain, its filters and the CDI proxies of the resource —
 * cost about a tenth of a run's server CPU for a route that takes one body and gives one. The
 * contract is the API's as everywhere else: the bearer token (as {@code CallerFilter}), an
 * {@code Accept} that must parse and allow JSON, a JSON body within
 * {@code switchboard.http.max-body-bytes}, and every refusal in the error envelope through
 * {@link ErrorAnswer}, the one mapping the JAX-RS doors use too. Another method on these paths
 * is {@code 404 route_not_found}, as on every JAX-RS route ({@code OPTIONS} says {@code Allow}).
 */
@WebServlet(urlPatterns = {MessagesServlet.MESSAGES, MessagesServlet.BATCH})
public class MessagesServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    /** The method of the API's routes here (OpenApiDocumentTest reads it: they must be documented). */
    static final String API_METHOD = "POST";
    static final String MESSAGES = "/v1/messages";
    static final String BATCH = "/v1/messages/batch";

    @EJB
    transient RunService runs;

    @Inject
    transient Authenticator authenticator;

    @Inject
    @ConfigProperty(name = "switchboard.http.max-body-bytes", defaultValue = "1048576")
    long maxBodyBytes;

    @Inject
    @ConfigProperty(name = "switchboard.http.max-batch-messages", defaultValue = "100")
    int maxBatchMessages;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            String method = request.getMethod();
            if ("OPTIONS".equals(method)) {
                response.setHeader("Allow", "POST, OPTIONS");
                response.setStatus(HttpServletResponse.SC_OK);
                return;
            }
            if (!API_METHOD.equals(method)) {
                throw ContainerErrors.forStatus(404).refusal();
            }
            checkAccept(request);
            String user = user(request);
            JsonBody.Parsed body = JsonBody.read(JsonBody.mediaType(request.getContentType()), request.getInputStream(),
                    maxBodyBytes);
            String answer = BATCH.equals(request.getServletPath()) ? batch(request, body, user) : one(request, body, user);
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            response.setStatus(HttpServletResponse.SC_ACCEPTED);
            response.setContentType("application/json");
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        } catch (RuntimeException e) {
            ErrorAnswer.of(e).write(response);
        }
    }

    /**
     * Declared so that the container lets TRACE through to {@link #service} (answered 404 like
     * every other method but POST) instead of refusing it with its own text page.
     */
    @Override
    protected void doTrace(HttpServletRequest request, HttpServletResponse response) throws IOException {
        service(request, response);
    }

    private String one(HttpServletRequest request, JsonBody.Parsed body, String user) {
        MessagePayload payload = MessagePayload.from(body);
        String key = payload.effectiveKey(headers(request, "Idempotency-Key"));
        IngestOutcome outcome = runs.ingest(payload.command(user, key));
        return RunJson.of(outcome.run()).toString();
    }

    private String batch(HttpServletRequest request, JsonBody.Parsed body, String user) {
        List<MessagePayload> payloads = MessagePayload.batch(body, maxBatchMessages);
        MessagePayload.refuseBatchKeyHeader(headers(request, "Idempotency-Key"));
        List<IngestOutcome> outcomes = runs.ingestAll(payloads.stream().map(p -> p.command(user, p.idempotencyKey()))
                .toList());
        JsonArrayBuilder envelopes = Jsons.createArrayBuilder();
        outcomes.forEach(o -> envelopes.add(RunJson.of(o.run())));
        return Jsons.createObjectBuilder().add("runs", envelopes).build().toString();
    }

    private String user(HttpServletRequest request) {
        Authentication auth = authenticator.authenticateFrom(request.getHeader("Authorization"),
                request.getRemoteAddr());
        return auth.user().orElseThrow(() -> new ApiException(401, "unauthorized", auth.refusalMessage()));
    }

    /** An {@code Accept} that does not parse is 400; one that allows no JSON is 406 (the answer is JSON). */
    private static void checkAccept(HttpServletRequest request) {
        List<String> accept = headers(request, "Accept");
        ApiException unparsable = AcceptHeaderFilter.unparsable(accept);
        if (unparsable != null) {
            throw unparsable;
        }
        if (!accept.isEmpty() && accept.stream().noneMatch(AcceptHeaderFilter::allowsJson)) {
            throw ContainerErrors.forStatus(406).refusal();
        }
    }

    private static List<String> headers(HttpServletRequest request, String name) {
        return Collections.list(request.getHeaders(name));
    }
}
