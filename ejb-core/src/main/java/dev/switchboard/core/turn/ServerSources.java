package dev.switchboard.core.turn;

import dev.switchboard.core.delegation.PathLanes;
import dev.switchboard.core.engine.ToolResumption;
import dev.switchboard.core.history.ContextWindow;
import dev.switchboard.core.history.ResponseRecords;
import java.util.List;
import java.util.Set;

/**
 * The run sources the server's own doors use. A run's source decides how the server treats it —
 * which turns a chat message may merge with, whether its input text is an approval's resumption,
 * which agent of a delegation it is — so a client naming its source ({@code POST /v1/messages})
 * must not take one of these: it could otherwise pose as an approved tool call or as another door.
 */
public final class ServerSources {

    /** What an ingress event's run has as its source before the event's own ({@code ingress:github}). */
    public static final String INGRESS_PREFIX = "ingress:";
    /**
     * The chat gateway's own turns other than a person's messages: a resumed tool call
     * ({@link ToolResumption#SOURCE}), a compaction's summary ({@link ContextWindow#SUMMARY_SOURCE}).
     */
    private static final String CHAT_PREFIX = "chat:";

    private static final Set<String> NAMES = Set.of(TurnLedger.SOURCE, TurnLedger.CHAT_SOURCE, ResponseRecords.SOURCE);
    /** Prefixes of families of sources: a delegated agent's runs, an ingress event's, the chat gateway's own. */
    private static final List<String> PREFIXES = List.of(PathLanes.SOURCE, INGRESS_PREFIX, CHAT_PREFIX);

    private ServerSources() {
    }

    /** Whether {@code source} (as a client gave it, trimmed) is one of the server's own. */
    public static boolean isServers(String source) {
        return NAMES.contains(source) || PREFIXES.stream().anyMatch(source::startsWith);
    }
}
