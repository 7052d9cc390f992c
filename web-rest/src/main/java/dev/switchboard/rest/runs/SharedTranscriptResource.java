package dev.switchboard.rest.runs;

import dev.switchboard.core.run.Transcripts;
import dev.switchboard.rest.auth.CallerFilter;
import dev.switchboard.rest.errors.ApiException;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /shared/{token}}: the transcript a link made by {@code POST /v1/threads/{key}/share}
 * opens, as an HTML page. The unguessable token is the only key (no bearer token: whoever has the
 * link reads it, as with a secret gist); a token never made, revoked or malformed is
 * {@code 404 share_not_found}. The answer is not to be cached (a revoked link must stop opening),
 * and sends no referrer onward (the token is in the page's address).
 */
@Path(CallerFilter.SHARED_TRANSCRIPTS)
@ApplicationScoped
public class SharedTranscriptResource {

    @EJB
    Transcripts transcripts;

    /** The link to the transcript of {@code token} on a server reached at {@code base}. */
    static String url(String base, String token) {
        return (base.endsWith("/") ? base : base + "/") + CallerFilter.SHARED_TRANSCRIPTS + "/" + token;
    }

    @GET
    @Path("{token}")
    public Response open(@PathParam("token") String token) {
        Transcripts.Transcript transcript = transcripts.open(token)
                .orElseThrow(() -> new ApiException(404, "share_not_found", "no transcript is shared at this link"));
        return Response.ok(TranscriptPage.html(transcript), MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .header("Content-Security-Policy", TranscriptPage.CONTENT_SECURITY_POLICY)
                .header("Cache-Control", "no-store").header("Referrer-Policy", "no-referrer")
                .header("X-Content-Type-Options", "nosniff").header("X-Robots-Tag", "noindex").build();
    }
}
