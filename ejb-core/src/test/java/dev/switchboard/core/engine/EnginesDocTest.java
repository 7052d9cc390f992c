package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example of docs/engines.md, taken from the page as it is written: its Java blocks
 * compile against this module, and the engine they define answers, and stops when cancelled.
 */
class EnginesDocTest {

    private static final Path PAGE = Path.of(System.getProperty("project.root", ".."), "docs", "engines.md");

    @TempDir
    static Path work;

    private static ClassLoader example;
    private static ScheduledExecutorService timer;

    @BeforeAll
    static void compileThePagesExample() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        Matcher block = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(page);
        List<String> sources = new ArrayList<>();
        while (block.find()) {
            String code = block.group(1);
            Matcher type = Pattern.compile("public class (\\w+)").matcher(code);
            assertTrue(type.find(), "a Java block of the page declares no public class:\n" + code);
            Path file = work.resolve("src/dev/switchboard/core/engine/" + type.group(1) + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, code, StandardCharsets.UTF_8);
            sources.add(file.toString());
        }
        assertEquals(2, sources.size(), "the page's example is an engine and its factory");
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        Path classes = Files.createDirectories(work.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath", testClassPath(),
                "-proc:none", "-Xlint:none"));
        args.addAll(sources);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = compiler.run(null, errors, errors, args.toArray(String[]::new));
        assertEquals(0, status, () -> "the page's example does not compile:\n" + errors.toString(StandardCharsets.UTF_8));
        example = new URLClassLoader(new URL[] {classes.toUri().toURL()}, EnginesDocTest.class.getClassLoader());
        timer = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    static void stopTimer() {
        timer.shutdownNow();
    }

    private static String testClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null ? surefire : System.getProperty("java.class.path");
    }

    private static AgentEngine engineWithDelay(long delayMs) throws ReflectiveOperationException {
        Object factory = example.loadClass("dev.switchboard.core.engine.ShoutEngineFactory").getConstructor().newInstance();
        Field delay = factory.getClass().getDeclaredField("delayMs");
        delay.setAccessible(true); // what MicroProfile Config injects in the server
        delay.setLong(factory, delayMs);
        EngineFactory registered = (EngineFactory) factory;
        assertEquals("shout", registered.name());
        return registered.create(new EngineServices(timer, "doc-test"));
    }

    private static EngineRequest request(String text, Cancellation cancellation) {
        return new EngineRequest("run-1", "local", "loud", text, "followUp", 1, cancellation);
    }

    @Test
    void theExampleEngineAnswersInCapitals() throws Exception {
        AgentEngine shout = engineWithDelay(5);
        JsonObject output = shout.execute(request("hello", Cancellation.manual())).toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        assertEquals("{\"type\":\"message\",\"text\":\"HELLO\"}", output.toString());
    }

    @Test
    void theExampleEngineStopsWhenCancelled() throws Exception {
        AgentEngine shout = engineWithDelay(60_000);
        Cancellation cancellation = Cancellation.manual();
        var stage = shout.execute(request("hello", cancellation)).toCompletableFuture();
        cancellation.cancel();
        ExecutionException failed = assertThrows(ExecutionException.class, () -> stage.get(10, TimeUnit.SECONDS));
        assertEquals("cancelled", failed.getCause().getMessage());
    }
}
