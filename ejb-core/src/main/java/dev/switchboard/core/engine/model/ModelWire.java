package dev.switchboard.core.engine.model;

import dev.switchboard.core.engine.RunStream;
import jakarta.json.JsonObject;

/** One model server API: where a call goes, its request body, and how its answer is read. */
public interface ModelWire {

    /** The path after the configured base URL, e.g. {@code /responses}. */
    String path();

    /** The request body of {@code call}, asking for a streamed answer. */
    JsonObject body(ModelCall call);

    /** Reads a streamed answer's events, passing text deltas to {@code stream}. */
    EventReader reader(RunStream stream);

    /** Reads an answer sent whole (a server that does not stream); throws when it is not one. */
    ModelReply whole(JsonObject answer);

    /** The events of one streamed answer, in order. */
    interface EventReader {

        /**
         * One server-sent event ({@code event} null when the frame had none); throws
         * {@link ModelStreamException} when the event reports a failure.
         */
        void event(String event, String data);

        /** The stream ended: the reply, or a {@link ModelStreamException} when it did not finish. */
        ModelReply end();

        /** Whether any text was passed on (a failed call that did so is not tried again). */
        boolean streamedAny();
    }
}
