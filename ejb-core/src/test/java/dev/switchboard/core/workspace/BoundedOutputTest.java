package dev.switchboard.core.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A command's output within its limit, with what was cut counted. */
class BoundedOutputTest {

    @Test
    void outputBeyondTheLimitIsCutAndCounted() {
        BoundedOutput out = new BoundedOutput(10);
        byte[] first = "hello ".getBytes(StandardCharsets.UTF_8);
        byte[] second = "world, and more".getBytes(StandardCharsets.UTF_8);
        out.append(first, 0, first.length);
        out.append(second, 0, second.length);
        out.append(second, 0, 5);
        assertEquals(16, out.cut());
        assertEquals("hello worl\n[output cut: 16 more bytes]", out.text());
    }

    @Test
    void outputWithinTheLimitIsKeptWhole() {
        BoundedOutput out = new BoundedOutput(100);
        byte[] bytes = "all of it".getBytes(StandardCharsets.UTF_8);
        out.append(bytes, 4, 5);
        assertEquals("of it", out.text());
        assertEquals(0, out.cut());
    }
}
