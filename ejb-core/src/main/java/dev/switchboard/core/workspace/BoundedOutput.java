package dev.switchboard.core.workspace;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A command's output kept within a limit: the first {@code limit} bytes, then a count of what was
 * cut, so a command that floods its output costs a bounded amount of memory and model context.
 * Safe to append from the threads that read a process's streams.
 */
public final class BoundedOutput {

    private final int limit;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private long cut;

    public BoundedOutput(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        this.limit = limit;
    }

    public synchronized void append(byte[] bytes, int offset, int length) {
        int room = Math.min(length, limit - kept.size());
        if (room > 0) {
            kept.write(bytes, offset, room);
        }
        cut += length - Math.max(room, 0);
    }

    /** Bytes left out so far. */
    public synchronized long cut() {
        return cut;
    }

    /** What was kept, as UTF-8 (a character split at the limit becomes a replacement), and a note of what was cut. */
    public synchronized String text() {
        String text = kept.toString(StandardCharsets.UTF_8);
        return cut == 0 ? text : text + "\n[output cut: " + cut + " more bytes]";
    }
}
