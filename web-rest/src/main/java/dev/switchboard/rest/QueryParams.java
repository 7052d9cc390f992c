package dev.switchboard.rest;

import dev.switchboard.rest.errors.ApiException;

/** Query-parameter parsing with the envelope's errors: {@code 400 invalid_<name>}. */
public final class QueryParams {

    private QueryParams() {
    }

    /** A whole number within [min, max], or {@code fallback} when the parameter is absent. */
    public static long bounded(String value, long fallback, long min, long max, String name) {
        if (value == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(value.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ApiException(400, "invalid_" + name, name + " must be a whole number from " + min + " to " + max);
    }
}
