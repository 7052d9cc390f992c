package dev.switchboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ThreadsCommandTest {

    @Test
    void theNextPageHintIsOneShellWordWhateverTheKeyOrSearchHolds() throws Exception {
        for (String text : List.of("plain", "two words", "it's", "$(touch x) `y` \"z\" \\ ;|&*?")) {
            // A POSIX shell reads the quoted word back as the text itself.
            Process sh = new ProcessBuilder("sh", "-c", "printf %s " + ThreadsCommand.shellQuoted(text))
                    .redirectErrorStream(true).directory(Files.createTempDirectory("quoted").toFile()).start();
            String echoed = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            sh.waitFor(10, TimeUnit.SECONDS);
            assertEquals(text, echoed);
            assertEquals(0, sh.exitValue());
        }
        assertEquals("'it'\\''s'", ThreadsCommand.shellQuoted("it's"));
    }
}
