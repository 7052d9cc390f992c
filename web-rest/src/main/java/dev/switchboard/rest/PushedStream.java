package dev.switchboard.rest;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The body of a streamed response ({@link jakarta.ws.rs.core.StreamingOutput}) where {@code flush}
 * sends what was written, from the first call on. Liberty's JAX-RS commits the headers at the
 * first flush of an entity stream but sends the bytes written before it only at the next flush:
 * without this, a stream's first line (the NDJSON greeting, the SSE {@code : subscribed} or
 * {@code response.created}) would wait for the second — a keep-alive seconds later.
 */
public final class PushedStream extends FilterOutputStream {

    private boolean committed;

    private PushedStream(OutputStream out) {
        super(out);
    }

    public static OutputStream of(OutputStream out) {
        return out instanceof PushedStream ? out : new PushedStream(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
        if (!committed) {
            committed = true;
            out.flush();
        }
    }
}
