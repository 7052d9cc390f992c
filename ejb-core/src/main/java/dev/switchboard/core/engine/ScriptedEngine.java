package dev.switchboard.core.engine;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A deterministic engine driven by its input, for tests; active only when
 * {@code switchboard.engine=scripted} is configured. The input is a script of directives
 * separated by {@code ;}, followed by the text to echo:
 * <ul>
 *   <li>{@code sleep <ms>} works for that long, checking its cancellation every
 *       {@value #TICK_MS} ms and stopping at once when cancelled;</li>
 *   <li>{@code await <path>} works until a file exists at {@code path} (a test's gate: it holds the
 *       run at this step until the test creates the file), checking every {@value #TICK_MS} ms and
 *       its cancellation as {@code sleep} does;</li>
 *   <li>{@code fail <message>} fails the run with that message;</li>
 *   <li>{@code history} ends the script and answers with the thread's history it was given, one
 *       {@code <role>: <text>} per item joined by {@code " | "}, after {@code history(<count>): };</li>
 *   <li>{@code call <agent> {<input>}} calls another agent with that input (itself a script, braces
 *       nesting) and goes on once its reply is in; several joined by {@code &} —
 *       {@code call a {x} & call b {y}} — are one fork, whose replies are all waited for. A call may
 *       end with {@code as <name>}: it claims to come from that name (a forgery Switchboard
 *       ignores). An execution that reaches a call whose replies are not in yet ends asking for the
 *       call ({@link Delegation#callsOutput}); the next execution replays the script and finds them;</li>
 *   <li>{@code replies} ends the script and answers with every reply so far, {@code <from>: <text>}
 *       joined by {@code " | "} (an {@code ack}, a SystemError as its code and text);</li>
 *   <li>{@code whoami} ends the script and answers with {@code agent=<name> from=<caller> self=<bool>};</li>
 *   <li>{@code silent} ends the script answering nothing (its caller gets an {@code ack});</li>
 *   <li>{@code tool <name> {<json arguments>}} calls one of the run's workspace tools (a run whose
 *       thread has a workspace) as a model would, and goes on; the answer then starts with each
 *       call's {@code <name>: <output>}, one per line;</li>
 *   <li>anything else ends the script and is echoed like {@link EchoEngine} does.</li>
 * </ul>
 * A text with no directive behaves exactly like the echo engine without delay. Each step checks
 * the cancellation first: a call that may no longer hold its lane's lease does nothing more. With
 * a {@link EngineJournal}, every call's start, progress and end are recorded.
 */
public class ScriptedEngine implements AgentEngine {

    static final long TICK_MS = 20;

    private final ScheduledExecutorService timer;
    private final EngineJournal journal;

    public ScriptedEngine(ScheduledExecutorService timer) {
        this(timer, null);
    }

    /** {@code journal} may be null (nothing recorded). */
    public ScriptedEngine(ScheduledExecutorService timer, EngineJournal journal) {
        this.timer = timer;
        this.journal = journal;
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public CompletionStage<JsonObject> execute(EngineRequest request) {
        Call call = new Call(request);
        call.record("start", EngineJournal.nowMicros(), null);
        call.result.whenComplete((output, error) -> {
            if (error != null) {
                boolean cancelled = request.cancellation().isCancelled();
                call.record("end", EngineJournal.nowMicros(), cancelled ? "cancelled" : "failed");
            }
        });
        request.cancellation().onCancel(() -> call.result.completeExceptionally(new EngineFailure("cancelled")));
        call.step(request.inputText());
        return call.result;
    }

    /** One engine call: its script position, its result and its last confirmed progress. */
    private final class Call {
        final EngineRequest request;
        final CompletableFuture<JsonObject> result = new CompletableFuture<>();
        volatile long progressAt = EngineJournal.nowMicros();
        long journalledProgressAt = progressAt;
        private boolean ended;

        Call(EngineRequest request) {
            this.request = request;
        }

        /** True (and progress noted) when the call may go on working; the time is read before the check. */
        boolean mayWork() {
            long at = EngineJournal.nowMicros();
            if (result.isDone() || request.cancelled()) {
                return false;
            }
            progressAt = at;
            if (journal != null && at - journalledProgressAt >= EngineJournal.PROGRESS_EVERY_US) {
                journalledProgressAt = at;
                record("progress", at, null);
            }
            return true;
        }

        /** Calls made so far by this execution's replay of its script: the next call's index. */
        int calls;

        void step(String script) {
            long at = EngineJournal.nowMicros();
            if (!mayWork()) {
                result.completeExceptionally(new EngineFailure("cancelled"));
                return;
            }
            int semi = ScriptCalls.topLevelSemicolon(script);
            String head = semi < 0 ? script : script.substring(0, semi);
            String rest = semi < 0 ? "" : script.substring(semi + 1).stripLeading();
            String directive = head.strip();
            if (directive.startsWith("call ")) {
                call(directive, rest, at);
                return;
            }
            if (directive.equals("replies") || directive.equals("whoami") || directive.equals("silent")) {
                Optional<Delegation> tree = request.delegated();
                if (tree.isEmpty()) {
                    result.completeExceptionally(new EngineFailure(directive + " needs a delegation tree"));
                    return;
                }
                record("end", at, "completed");
                result.complete(directive.equals("silent") ? Delegation.nothing()
                        : EchoEngine.reply(directive.equals("replies") ? Delegation.told(tree.get().replies().get(), " | ")
                                : "agent=" + tree.get().agent() + " from=" + tree.get().from() + " self="
                                        + tree.get().selfCall(), request.deliveryMode()));
                return;
            }
            if (directive.startsWith("tool ")) {
                tool(directive.substring(5).strip(), rest);
                return;
            }
            if (directive.startsWith("sleep ")) {
                long ms = parseMillis(directive.substring(6).strip());
                if (ms >= 0) {
                    sleep(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms), rest);
                    return;
                }
            }
            if (directive.startsWith("await ")) {
                Path gate;
                try {
                    gate = Path.of(directive.substring(6).strip());
                } catch (java.nio.file.InvalidPathException e) {
                    result.completeExceptionally(new EngineFailure("await needs a file path"));
                    return;
                }
                awaitFile(gate, rest);
                return;
            }
            if (directive.equals("history")) {
                List<JsonObject> history = request.history().get();
                String told = history.stream()
                        .map(item -> item.getString("role", item.getString("type", "?")) + ": " + textOf(item))
                        .collect(Collectors.joining(" | "));
                record("end", at, "completed");
                result.complete(EchoEngine.reply("history(" + history.size() + "): " + told, request.deliveryMode()));
                return;
            }
            if (directive.startsWith("fail ")) {
                result.completeExceptionally(new EngineFailure(directive.substring(5).strip()));
                return;
            }
            record("end", at, "completed");
            result.complete(EchoEngine.reply(toolOutputs.isEmpty() ? script
                    : String.join("\n", toolOutputs) + (script.isBlank() ? "" : "\n" + script), request.deliveryMode()));
        }

        /** What the workspace tools this execution called answered, in order. */
        private final List<String> toolOutputs = new java.util.ArrayList<>();

        /** One workspace tool call, {@code <name> <json arguments>}; the script goes on with its output noted. */
        private void tool(String call, String rest) {
            Optional<dev.switchboard.core.engine.tool.ToolBox> tools = request.workspaceTools();
            if (tools.isEmpty()) {
                result.completeExceptionally(new EngineFailure("tool needs a workspace (the thread has none)"));
                return;
            }
            int space = call.indexOf(' ');
            String name = space < 0 ? call : call.substring(0, space);
            String arguments = space < 0 ? "{}" : call.substring(space + 1).strip();
            tools.get().call(name, arguments).whenComplete((output, error) -> {
                toolOutputs.add(name + ": " + (error != null ? "error: " + error.getMessage() : output));
                step(rest);
            });
        }

        /** A round of calls: replayed when its replies are in, else asked for. */
        private void call(String directive, String rest, long at) {
            Optional<Delegation> tree = request.delegated();
            List<ScriptCalls.Planned> round;
            try {
                round = ScriptCalls.parse(directive);
            } catch (IllegalArgumentException e) {
                result.completeExceptionally(new EngineFailure(e.getMessage()));
                return;
            }
            if (tree.isEmpty()) {
                result.completeExceptionally(new EngineFailure("call needs a delegation tree"));
                return;
            }
            int first = calls;
            calls += round.size();
            boolean answered = true;
            for (int i = 0; i < round.size(); i++) {
                answered &= !tree.get().repliesTo(first + i).isEmpty();
            }
            if (answered) {
                step(rest);
                return;
            }
            record("end", at, "completed");
            result.complete(ScriptCalls.output(round, first));
        }

        private void sleep(long untilNanos, String rest) {
            long left = untilNanos - System.nanoTime();
            if (left <= 0) {
                step(rest);
                return;
            }
            timer.schedule(() -> {
                if (!mayWork()) {
                    result.completeExceptionally(new EngineFailure("cancelled"));
                } else {
                    sleep(untilNanos, rest);
                }
            }, Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, TICK_MS), TimeUnit.MILLISECONDS);
        }

        private void awaitFile(Path gate, String rest) {
            if (Files.exists(gate)) {
                step(rest);
                return;
            }
            timer.schedule(() -> {
                if (!mayWork()) {
                    result.completeExceptionally(new EngineFailure("cancelled"));
                } else {
                    awaitFile(gate, rest);
                }
            }, TICK_MS, TimeUnit.MILLISECONDS);
        }

        void record(String event, long at, String outcome) {
            if (journal == null) {
                return;
            }
            boolean end = "end".equals(event);
            synchronized (this) {
                if (ended) {
                    return; // one end per call: a cancellation racing a completion adds nothing
                }
                ended = end;
            }
            journal.write(request, event, at, outcome, end ? progressAt : null);
        }
    }

    /** An item's text parts, joined by newlines. */
    private static String textOf(JsonObject item) {
        JsonArray content = item.containsKey("content") && item.get("content").getValueType() == JsonValue.ValueType.ARRAY
                ? item.getJsonArray("content") : JsonValue.EMPTY_JSON_ARRAY;
        return content.stream()
                .filter(part -> part instanceof JsonObject p && p.get("text") instanceof JsonString)
                .map(part -> ((JsonObject) part).getString("text"))
                .collect(Collectors.joining("\n"));
    }

    private static long parseMillis(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
