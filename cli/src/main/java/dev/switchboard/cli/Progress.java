package dev.switchboard.cli;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.PrintWriter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Shows a turn's notifications while a command waits for it: on a terminal one line that a
 * spinner keeps redrawing (state, elapsed time), with the turn's messages printed above it; when
 * the output is a pipe, one plain line per notification.
 */
final class Progress implements AutoCloseable {

    private static final String[] SPINNER = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};

    private final PrintWriter out;
    private final boolean terminal;
    private final long startedNanos = System.nanoTime();
    private ScheduledExecutorService ticker;
    private String state = "waiting";
    private int frame;

    Progress(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
        if (terminal) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "progress");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleAtFixedRate(this::redraw, 0, 100, TimeUnit.MILLISECONDS);
        }
    }

    /** One notification of the turn being waited for. */
    synchronized void update(JsonObject notification) {
        String method = notification.getString("method", "");
        JsonObject params = notification.get("params") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
        String line = switch (method) {
            case "turn/started" -> "started " + Texts.string(params, "turn_id") + " on " + Texts.string(params, "thread_id");
            case "turn/progress" -> Texts.string(params, "state");
            case "item/created" -> Texts.summary(method, params);
            case "turn/completed" -> "completed";
            case "turn/interrupted" -> "interrupted (" + Texts.string(params, "status") + "): " + Texts.string(params, "message");
            default -> null;
        };
        if (line == null) {
            return;
        }
        if (!terminal) {
            out.println(line);
            return;
        }
        if (method.equals("item/created")) {
            clear();
            out.println(line);
        } else {
            state = line;
        }
        redraw();
    }

    private synchronized void redraw() {
        if (ticker == null) {
            return;
        }
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        out.print(String.format("\r\033[2K%s %s · %.1f s", SPINNER[frame++ % SPINNER.length], state, seconds));
        out.flush();
    }

    private void clear() {
        out.print("\r\033[2K");
        out.flush();
    }

    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
            clear();
        }
    }
}
