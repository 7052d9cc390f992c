package dev.switchboard.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code /favicon.ico}, which browsers ask the server's root for on every page (the dashboard's
 * among them): the server's icon, cached for a day, no token needed.
 */
@Path("/favicon.ico")
public class FaviconResource {

    private static final byte[] ICON = load();

    @GET
    public Response icon() {
        return Response.ok(ICON, "image/x-icon").header("Cache-Control", "public, max-age=86400").build();
    }

    private static byte[] load() {
        try (InputStream in = FaviconResource.class.getResourceAsStream("/favicon.ico")) {
            if (in == null) {
                throw new IllegalStateException("favicon.ico is missing from the war's classes");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
