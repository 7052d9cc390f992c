package dev.switchboard.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BoundedLabelTest {

    @Test
    void theFirstDistinctValuesAreKeptAndLaterOnesFolded() {
        BoundedLabel label = new BoundedLabel(2, "other");
        assertEquals("github", label.of("github"));
        assertEquals("ci", label.of("ci"));
        assertEquals("other", label.of("spam-1"), "a third distinct value is past the limit");
        assertEquals("other", label.of("spam-2"));
        assertEquals("github", label.of("github"), "a value kept before stays itself");
        assertEquals("ci", label.of("ci"));
    }
}
