package dev.switchboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** How runs and notifications read, and the plain progress lines a pipe gets. */
class TextsTest {

    private static JsonObject json(String text) {
        return (JsonObject) Api.parse(text);
    }

    @Test
    void aRunLineIsJagcsIdStatusAndError() {
        assertEquals("r1 succeeded", Texts.runLine(json("{\"run_id\":\"r1\",\"status\":\"succeeded\",\"error\":null}")));
        assertEquals("r2 failed agent exploded",
                Texts.runLine(json("{\"run_id\":\"r2\",\"status\":\"failed\",\"error\":{\"message\":\"agent exploded\"}}")));
    }

    @Test
    void aNotificationLineHasSeqMethodThreadAndWhatItSays() {
        JsonObject item = json("{\"method\":\"item/created\",\"params\":{\"seq\":12,\"thread_id\":\"demo\",\"content\":"
                + "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"two\\nlines\"}]}}}");
        assertEquals("    12  item/created       demo             assistant: two lines", Texts.notificationLine(item));
        JsonObject interrupted = json("{\"method\":\"turn/interrupted\",\"params\":{\"seq\":13,\"thread_id\":\"demo\","
                + "\"turn_id\":\"turn_1\",\"status\":\"failed\",\"message\":\"boom\"}}");
        assertEquals("    13  turn/interrupted   demo             turn_1 failed: boom", Texts.notificationLine(interrupted));
    }

    @Test
    void pipedProgressIsOnePlainLinePerNotificationOfTheTurn() {
        StringWriter text = new StringWriter();
        try (Progress progress = new Progress(new PrintWriter(text, true), false)) {
            progress.update(json("{\"method\":\"turn/started\",\"params\":{\"turn_id\":\"turn_1\",\"thread_id\":\"demo\"}}"));
            progress.update(json("{\"method\":\"turn/progress\",\"params\":{\"turn_id\":\"turn_1\",\"state\":\"running\"}}"));
            progress.update(json("{\"method\":\"item/created\",\"params\":{\"content\":{\"role\":\"assistant\",\"content\":[{\"text\":\"hi\"}]}}}"));
            progress.update(json("{\"method\":\"thread/paused\",\"params\":{}}"));
            progress.update(json("{\"method\":\"turn/completed\",\"params\":{\"turn_id\":\"turn_1\"}}"));
        }
        assertEquals(String.join(System.lineSeparator(), "started turn_1 on demo", "running", "assistant: hi", "completed", ""),
                text.toString());
    }
}
