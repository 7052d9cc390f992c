package dev.switchboard.core.turn;

import dev.switchboard.persistence.run.RunKind;
import java.util.Objects;

/**
 * The door a turn came through: the source its runs carry (what clients read) and their kind (what
 * the server acts on). A follow-up policy acts only on turns of its own door's kind.
 */
public record TurnDoor(String source, RunKind kind) {

    /** JSON-RPC {@code turn/start}. */
    public static final TurnDoor RPC = new TurnDoor(TurnLedger.SOURCE, RunKind.TURN);
    /** A chat message. */
    public static final TurnDoor CHAT = new TurnDoor(TurnLedger.CHAT_SOURCE, RunKind.CHAT);

    public TurnDoor {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kind, "kind");
    }
}
