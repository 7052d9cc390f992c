package dev.switchboard.persistence.run;

/**
 * What a run is, set by the door that ingests it and stored with it: the features above the lane
 * prepare its execution and apply its end by its kind, never by its {@code source} (a client's
 * label on a message, free text outside the server's reserved names). The lane itself only carries
 * it.
 */
public enum RunKind {
    /** A client's message ({@code POST /v1/messages}, its batch, the CLI). */
    MESSAGE("message"),
    /** A JSON-RPC {@code turn/start}. */
    TURN("turn"),
    /** A chat message (REST chat, {@code chat/send}, a chat channel). */
    CHAT("chat"),
    /** A chat thread's compaction: its input is the transcript to summarise. */
    COMPACTION("compaction"),
    /** A paused tool call resumed once approved or supplied with its credential. */
    RESUMPTION("resumption"),
    /** An Open Responses request ({@code POST /v1/responses}). */
    RESPONSE("response"),
    /** An event from ingress: a webhook delivery, a generic event, a timer. */
    EVENT("event"),
    /** A call delegated to an agent by another run: it runs on a path of its own. */
    DELEGATED("delegated");

    private final String wire;

    RunKind(String wire) {
        this.wire = wire;
    }

    /** The name stored in {@code runs.kind}. */
    public String wire() {
        return wire;
    }

    public static RunKind fromWire(String wire) {
        for (RunKind k : values()) {
            if (k.wire.equals(wire)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown run kind: " + wire);
    }
}
