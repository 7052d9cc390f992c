package dev.switchboard.rest.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.thread.RuntimeChoiceException;
import dev.switchboard.rest.errors.ApiException;
import org.junit.jupiter.api.Test;

class RuntimeChoiceMapperTest {

    @Test
    void theCodeSaysWhichChoiceWasRefused() {
        ApiException model = RuntimeChoiceMapper.error(
                new RuntimeChoiceException(RuntimeChoiceException.Choice.MODEL, "no such model"));
        assertEquals("400 thread_model_error no such model",
                model.status() + " " + model.code() + " " + model.getMessage());
        ApiException thinking = RuntimeChoiceMapper.error(
                new RuntimeChoiceException(RuntimeChoiceException.Choice.THINKING_LEVEL, "no such level"));
        assertEquals("400 thread_thinking_error no such level",
                thinking.status() + " " + thinking.code() + " " + thinking.getMessage());
    }
}
