package dev.switchboard.core.engine;

import jakarta.json.JsonObject;

/**
 * What an engine shows of a run while it works: parts of the assistant's reply as they are
 * produced, and each finished step of a tool loop (a {@code function_call} item, then its
 * {@code function_call_output}). Subscribers see them live; the run's stored output stays the
 * authority, so a sink may coalesce deltas and drop those the run's end makes moot. Calls come
 * from any thread, in the order they happened, and must not block for long.
 */
public interface RunStream {

    /** Shows nothing: callers (tests, engines called outside a lane) that have no subscribers. */
    RunStream NONE = new RunStream() {
        @Override
        public void textDelta(String text) {
        }

        @Override
        public void item(JsonObject item) {
        }
    };

    /** The next part of the assistant's reply. */
    void textDelta(String text);

    /** A finished item of the run other than its final reply (Open Responses item shape). */
    void item(JsonObject item);
}
