package dev.switchboard.core.lane;

import java.util.List;
import java.util.Optional;

/** Outcome of a claim attempt: the claimed (or adopted) run, if any, and runs failed (abandoned) on the way. */
public record ClaimResult(Optional<Claim> claim, List<String> abandonedRunIds) {

    public static ClaimResult none() {
        return new ClaimResult(Optional.empty(), List.of());
    }
}
