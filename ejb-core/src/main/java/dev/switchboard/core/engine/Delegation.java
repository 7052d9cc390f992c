package dev.switchboard.core.engine;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What an engine knows of the delegation tree it works in, and how it asks for calls. An engine
 * that wants other agents' answers ends its execution with {@link #callsOutput} — one call is a
 * delegation, several are parallel forks (a capability served by several agents is a broadcast) —
 * and is executed again, with the same input, once every reply is in: the replies arrive by call
 * index ({@link #replies()}), so an engine that replays its work from the start finds the calls it
 * made answered and goes on. An engine never names a caller, a path or a thread: Switchboard
 * computes {@code from} and the paths, and ignores anything else a call carries.
 *
 * @param agent the name of the agent this execution handles ({@code main} for an outer unit of work)
 * @param pathId the opaque id of the path it handles (null before the unit's first call)
 * @param from who called it (null for the outer unit of work)
 * @param selfCall it was called by an agent of its own name
 * @param replies the replies to its calls so far, by call index; read when first asked for
 * @param instructions what the agent is told it is (null: the engine's own instructions)
 * @param callable the names it may call — agents and capabilities — in name order
 * @param state what its last execution kept when it asked for calls ({@link #callsOutput(List, JsonObject)}), else null
 */
public record Delegation(String agent, String pathId, String from, boolean selfCall, Supplier<List<Reply>> replies,
        String instructions, List<String> callable, JsonObject state) {

    /** A place in a tree with nothing configured beyond it (tests, the scripted engine). */
    public Delegation(String agent, String pathId, String from, boolean selfCall, Supplier<List<Reply>> replies) {
        this(agent, pathId, from, selfCall, replies, null, List.of(), null);
    }

    /** The output key of an execution that asks for calls. */
    public static final String CALLS = "delegate";
    /** The output key of what an execution asking for calls keeps for its next execution. */
    public static final String STATE = "state";
    /** The output key of an execution that answers nothing (its caller is sent an {@code ack}). */
    public static final String NOTHING = "no_reply";

    /** One call an engine asks for: {@code index} counts every call of the execution, from 0. */
    public record Call(int index, String to, String input) {
    }

    /**
     * A reply to call {@code call}: {@code status} {@code reply} (with the callee's text),
     * {@code ack} (it answered nothing) or {@code error} (a {@code SystemError}: {@code code}
     * routing, timeout, handler or depth, and a generic text). A broadcast call has one reply per
     * listener, each with its own {@code from}.
     */
    public record Reply(int call, String from, String status, String code, String text) {

        public boolean isError() {
            return "error".equals(status);
        }

        /** The reply as a tool result's text: the callee's answer, {@code ack}, or the error as a SystemError. */
        public String asToolResult() {
            if (isError()) {
                return "SystemError{code: " + code + ", message: " + text + "}";
            }
            return "ack".equals(status) ? "ack" : text;
        }
    }

    /** Replies as {@code <from>: <result>}, joined by {@code separator}. */
    public static String told(List<Reply> replies, String separator) {
        return replies.stream().map(r -> r.from() + ": " + r.asToolResult()).collect(Collectors.joining(separator));
    }

    /** The replies to call {@code index}. */
    public List<Reply> repliesTo(int index) {
        return replies.get().stream().filter(r -> r.call() == index).toList();
    }

    /** The output of an execution that asks for {@code calls}. */
    public static JsonObject callsOutput(List<Call> calls) {
        return callsOutput(calls, null);
    }

    /**
     * The output of an execution that asks for {@code calls} and keeps {@code state} (null: none)
     * for its next execution, which finds it in {@link #state()} — an engine that cannot replay its
     * work (a model's answers are not deterministic) carries on from there.
     */
    public static JsonObject callsOutput(List<Call> calls, JsonObject state) {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        for (Call c : calls) {
            list.add(Jsons.createObjectBuilder().add("index", c.index()).add("to", c.to()).add("input", c.input()));
        }
        JsonObjectBuilder output = Jsons.createObjectBuilder().add("type", CALLS).add(CALLS, list);
        if (state != null) {
            output.add(STATE, state);
        }
        return output.build();
    }

    /** What an output asking for calls keeps for the next execution; null when it keeps nothing. */
    public static JsonObject stateIn(JsonObject output) {
        return output != null && output.get(STATE) instanceof JsonObject state ? state : null;
    }

    /** The output of an execution that answers nothing. */
    public static JsonObject nothing() {
        return Jsons.createObjectBuilder().add("type", NOTHING).build();
    }

    /** True for {@link #nothing()}'s output. */
    public static boolean isNothing(JsonObject output) {
        return output != null && NOTHING.equals(output.getString("type", ""));
    }

    /**
     * The calls an output asks for; empty when it asks for none. Only the index, target and input
     * are read: anything else a call carries ({@code from}, a thread) is ignored.
     */
    public static Optional<List<Call>> callsIn(JsonObject output) {
        if (output == null || !CALLS.equals(output.getString("type", "")) || !(output.get(CALLS) instanceof jakarta.json.JsonArray list)) {
            return Optional.empty();
        }
        List<Call> calls = new ArrayList<>();
        for (JsonValue v : list) {
            if (v instanceof JsonObject c && c.get("index") instanceof JsonNumber i && c.get("to") instanceof JsonString to) {
                JsonValue input = c.get("input");
                calls.add(new Call(i.intValue(), to.getString(), input instanceof JsonString s ? s.getString() : ""));
            }
        }
        return calls.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(calls));
    }
}
