package dev.switchboard.rest.ingress;

import dev.switchboard.core.ingress.IngressService;
import dev.switchboard.core.ingress.RecordPage;
import dev.switchboard.core.ingress.RecordQuery;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * {@code GET /v1/events}, {@code /v1/decisions}, {@code /v1/actions}: the ingress records, a page
 * at a time ({@code {"data":[…],"next_cursor":…}}), filtered by correlation key and time; with
 * {@code Accept: application/x-ndjson} every matching record is streamed, one per line (an export
 * in Holon's record shapes). {@code POST /v1/events/{event_id}/requeue} runs a failed event again (a refusal:
 * {@link IngressErrorMappers.RequeueRefused}).
 */
@Path("v1")
@ApplicationScoped
public class IngressRecordsResource {

    static final String NDJSON = "application/x-ndjson";
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    private static final Set<String> FILTERS = Set.of("event_id", "session_key", "run_id", "turn_id", "dedupe_key",
            "source", "status", "since", "until", "cursor", "limit");

    @EJB
    IngressService ingress;

    @Inject
    Caller caller;

    @GET
    @Path("events")
    public Response events(@Context UriInfo uri, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return answer(uri, accept, ingress::events);
    }

    @GET
    @Path("decisions")
    public Response decisions(@Context UriInfo uri, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return answer(uri, accept, ingress::decisions);
    }

    @GET
    @Path("actions")
    public Response actions(@Context UriInfo uri, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return answer(uri, accept, ingress::actions);
    }

    @POST
    @Path("events/{event_id}/requeue")
    public Response requeue(@PathParam("event_id") String eventId) {
        return IngressBodies.accepted(ingress.requeue(caller.user(), JsonBody.storable(eventId.strip(), "event_id")));
    }

    private Response answer(UriInfo uri, String accept, BiFunction<String, RecordQuery, RecordPage> read) {
        RecordQuery query = query(queryParameters(uri));
        String user = caller.user();
        if (wantsNdjson(accept)) {
            StreamingOutput export = out -> export(out, read, user, query);
            return Response.ok(export, NDJSON).build();
        }
        RecordPage page = read.apply(user, query);
        JsonArrayBuilder data = Jsons.createArrayBuilder();
        page.records().forEach(data::add);
        JsonObjectBuilder body = Jsons.createObjectBuilder().add("data", data);
        if (page.next() == null) {
            body.addNull("next_cursor");
        } else {
            body.add("next_cursor", page.next().encode());
        }
        return Response.ok(body.build().toString(), MediaType.APPLICATION_JSON).build();
    }

    /** Every matching record, page after page, so an export of any size runs in bounded memory. */
    private static void export(OutputStream out, BiFunction<String, RecordQuery, RecordPage> read,
            String user, RecordQuery first) throws IOException {
        RecordQuery q = new RecordQuery(first.eventId(), first.sessionKey(), first.runId(), first.turnId(),
                first.dedupeKey(), first.source(), first.status(), first.since(), first.until(), first.after(),
                MAX_LIMIT);
        while (true) {
            RecordPage page = read.apply(user, q);
            for (JsonObject record : page.records()) {
                out.write(record.toString().getBytes(StandardCharsets.UTF_8));
                out.write('\n');
            }
            out.flush();
            if (page.next() == null) {
                return;
            }
            q = q.withAfter(page.next());
        }
    }

    /** The decoded query parameters; a malformed percent-escape ({@code %zz}) is {@code 400 invalid_query}. */
    private static MultivaluedMap<String, String> queryParameters(UriInfo uri) {
        try {
            return uri.getQueryParameters();
        } catch (RuntimeException e) {
            throw new ApiException(400, "invalid_query", "the query string is not valid percent-encoded UTF-8");
        }
    }

    static RecordQuery query(MultivaluedMap<String, String> params) {
        for (String name : params.keySet()) {
            if (!FILTERS.contains(name)) {
                throw new ApiException(400, "invalid_query", "unknown query parameter " + name + "; known: "
                        + String.join(", ", FILTERS.stream().sorted().toList()));
            }
        }
        RecordQuery.Cursor after = null;
        String cursor = single(params, "cursor");
        if (cursor != null) {
            after = RecordQuery.Cursor.decode(cursor)
                    .orElseThrow(() -> new ApiException(400, "invalid_cursor", "cursor is not one this server issued"));
        }
        Long since = time(single(params, "since"), "since");
        Long until = time(single(params, "until"), "until");
        int limit = (int) QueryParams.bounded(single(params, "limit"), DEFAULT_LIMIT, 1, MAX_LIMIT, "limit");
        return new RecordQuery(single(params, "event_id"), single(params, "session_key"), single(params, "run_id"),
                single(params, "turn_id"), single(params, "dedupe_key"), single(params, "source"),
                single(params, "status"), since, until, after, limit);
    }

    private static String single(MultivaluedMap<String, String> params, String name) {
        List<String> values = params.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new ApiException(400, "invalid_" + name, name + " may be given once");
        }
        String v = values.get(0).strip();
        if (v.isEmpty()) {
            throw new ApiException(400, "invalid_" + name, name + " must not be empty");
        }
        return JsonBody.storable(v, name);
    }

    /** The latest time a filter may name: the end of year 9999. */
    static final long MAX_TIME_MS = OffsetDateTime.parse("9999-12-31T23:59:59.999Z").toInstant().toEpochMilli();

    /** RFC 3339 ({@code 2026-11-21T10:00:00Z}) or epoch milliseconds, from 1970 to the end of 9999. */
    private static Long time(String value, String name) {
        if (value == null) {
            return null;
        }
        long ms;
        try {
            ms = OffsetDateTime.parse(value).toInstant().toEpochMilli();
        } catch (DateTimeException | ArithmeticException e) {
            try {
                ms = Long.parseLong(value);
            } catch (NumberFormatException n) {
                throw invalidTime(name);
            }
        }
        if (ms < 0 || ms > MAX_TIME_MS) {
            throw invalidTime(name);
        }
        return ms;
    }

    private static ApiException invalidTime(String name) {
        return new ApiException(400, "invalid_" + name, name
                + " must be an RFC 3339 time (2026-11-21T10:00:00Z) or epoch milliseconds, from 1970 to 9999");
    }

    /** NDJSON when the client asks for it by name; JSON otherwise. */
    static boolean wantsNdjson(String accept) {
        if (accept == null) {
            return false;
        }
        for (String part : accept.split(",")) {
            String type = part.split(";")[0].strip().toLowerCase(Locale.ROOT);
            if (type.equals(NDJSON)) {
                return true;
            }
        }
        return false;
    }
}
