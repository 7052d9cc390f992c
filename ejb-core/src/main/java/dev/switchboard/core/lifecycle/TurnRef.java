package dev.switchboard.core.lifecycle;

import dev.switchboard.persistence.turn.TurnRecord;

/** What a turn's notifications name of it: read from its entity or from a plain row alike. */
public record TurnRef(String turnId, String userKey, String threadKey, long startedAt) {

    public static TurnRef of(TurnRecord turn) {
        return new TurnRef(turn.getTurnId(), turn.getUserKey(), turn.getThreadKey(), turn.getStartedAt());
    }
}
