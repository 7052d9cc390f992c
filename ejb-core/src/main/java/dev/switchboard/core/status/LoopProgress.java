package dev.switchboard.core.status;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The liveness rule for the loops an instance depends on: a loop that has not gone round for
 * {@code stuckMs} is stuck — blocked in a hung database or starved of its thread — and only a
 * restart helps. A loop that fails keeps going round, so a database that is away never makes an
 * instance not live. Plain, so the rule has its own unit test.
 */
public record LoopProgress(boolean going, Map<String, String> loops) {

    private static final String PROGRESSING = "progressing";

    /** {@code agesMs}: per loop, milliseconds since it last went round, in the order to report them. */
    public static LoopProgress of(Map<String, Long> agesMs, long stuckMs) {
        Map<String, String> loops = new LinkedHashMap<>();
        boolean going = true;
        for (Map.Entry<String, Long> age : agesMs.entrySet()) {
            boolean progressing = age.getValue() < stuckMs;
            going &= progressing;
            loops.put(age.getKey(), progressing ? PROGRESSING : "stuck for " + age.getValue() + " ms");
        }
        return new LoopProgress(going, Collections.unmodifiableMap(loops));
    }
}
