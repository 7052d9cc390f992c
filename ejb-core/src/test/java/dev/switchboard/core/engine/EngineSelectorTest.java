package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class EngineSelectorTest {

    private static EngineFactory factory(String name) {
        return new EngineFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public AgentEngine create(EngineServices services) {
                return new AgentEngine() {
                    @Override
                    public String name() {
                        return name;
                    }

                    @Override
                    public CompletableFuture<jakarta.json.JsonObject> execute(EngineRequest request) {
                        return CompletableFuture.failedFuture(new EngineFailure("not for running"));
                    }
                };
            }
        };
    }

    @Test
    void theConfiguredNameChoosesItsFactoryBlanksAside() {
        EngineFactory echo = factory("echo");
        EngineFactory shout = factory("shout");
        assertSame(shout, EngineSelector.choose(" shout ", List.of(echo, shout)));
        assertSame(echo, EngineSelector.choose("echo", List.of(echo, shout)));
    }

    @Test
    void anUnknownNameIsRefusedNamingTheKnownOnes() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> EngineSelector.choose("gpt", List.of(factory("scripted"), factory("echo"))));
        assertEquals("switchboard.engine: unknown engine 'gpt' (known: echo, scripted)", e.getMessage());
    }

    @Test
    void twoFactoriesCannotClaimOneName() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> EngineSelector.choose("echo", List.of(factory("echo"), factory("echo"))));
        assertTrue(e.getMessage().startsWith("two engine factories are named 'echo'"), e.getMessage());
    }
}
