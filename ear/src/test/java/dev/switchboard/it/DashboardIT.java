package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless browser (Debian's chromium through chromedriver, installed by
 * {@code scripts/ensure-chromium.sh}) against a running server: a message posted through REST
 * appears and completes live, the page's own form, interrupt and pause buttons work, and after the
 * server restarts the page reconnects and holds every notification of the thread — no gap, no
 * duplicate. Screenshots of the views land in {@code target/dashboard/}.
 */
@Order(5) // among the longest classes: started early in the parallel run (ear/pom.xml)
class DashboardIT {

    private static final int PORT = 9206;
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Instance instance;
    private static WebDriver browser;

    @BeforeAll
    static void start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("DashboardIT needs " + CHROMIUM + " and " + CHROMEDRIVER
                    + ": run scripts/ensure-chromium.sh (Debian packages chromium and chromium-driver)");
        }
        Map<String, String> env = Instance.defaults(TestDatabase.recreate("switchboard_it_dashboard"), PORT, "it-dashboard");
        env.put("SWITCHBOARD_AGENTS", "[{\"name\":\"researcher\"},{\"name\":\"calc\",\"peers\":[]}]");
        instance = Instance.start("it-dashboard", PORT, env);
        Logger.getLogger("org.openqa.selenium").setLevel(Level.SEVERE); // its CDP version notices are not ours
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .withLogOutput(java.io.OutputStream.nullOutputStream()).build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (instance != null) {
            instance.stop();
        }
    }

    private static WebDriverWait waiting() {
        return new WebDriverWait(browser, WAIT);
    }

    private static void awaitLive() {
        waiting().until(ExpectedConditions.textToBe(By.id("connection"), "live"));
    }

    private static WebElement awaitTurn(String css, String turnId, String state) {
        try {
            return waiting().until(ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector(css + "[data-turn='" + turnId + "'][data-state='" + state + "']")));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("no " + css + " of " + turnId + " in state " + state + "; the page shows:\n"
                    + browser.findElement(By.tagName("body")).getText(), e);
        }
    }

    private static void screenshot(String name) throws IOException {
        Path dir = Path.of(System.getProperty("it.work.dir", "target/it")).resolveSibling("dashboard");
        Files.createDirectories(dir);
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, dir.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** The other tests show the page working under this policy: its script runs, its WebSocket connects. */
    @Test
    void thePagesRunOnlyTheirOwnScriptAndCannotBeFramed() throws Exception {
        for (String page : List.of("/dashboard/", "/dashboard/app.js")) {
            HttpResponse<String> r = Api.CLIENT.send(HttpRequest.newBuilder(URI.create(instance.api.base + page)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), page);
            String policy = r.headers().firstValue("Content-Security-Policy").orElse("");
            assertTrue(policy.contains("script-src 'self';") && policy.contains("frame-ancestors 'none'"), page + ": " + policy);
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(null), page);
        }
    }

    @Test
    void aTurnAppearsAndCompletesLiveAndNothingIsMissingAfterARestart() throws Exception {
        String thread = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        browser.get("http://127.0.0.1:" + PORT + "/dashboard/#thread=" + thread);
        awaitLive();
        waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#cluster tr[data-instance='it-dashboard'][data-state='up']")));

        String first = instance.api.message(thread, "sleep 300; hello dashboard").getString("turn_id");
        awaitTurn("#turns tr", first, "completed");
        WebElement entry = awaitTurn("#thread-turns li", first, "completed");
        waiting().until(d -> entry.getText().contains("assistant: hello dashboard"));
        assertTrue(entry.getText().contains("user: sleep 300; hello dashboard"), entry.getText());
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#threads tr[data-thread='" + thread + "']")));
        Api.Reply event = instance.api.postJson("/ingress/events", "{\"source\":\"ci\",\"type\":\"ci.build.failed\","
                + "\"scope\":{\"repo\":\"acme/widgets\"},\"payload\":{\"instruction\":\"Decision: pr-fix\"}}");
        assertEquals(202, event.status(), event.body());
        WebElement row = waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#events tr[data-event='" + event.json().getString("event_id") + "']")));
        assertTrue(row.getText().contains("ci.build.failed accepted event:acme/widgets forward_event"), row.getText());
        screenshot("main");

        instance.stop();
        waiting().until(ExpectedConditions.textToBe(By.id("connection"), "reconnecting"));
        instance.restart();
        // Posted at once: the page may not have reconnected yet, and must replay it from its last seq.
        String second = instance.api.message(thread, "after the restart").getString("turn_id");
        awaitLive();
        awaitTurn("#thread-turns li", second, "completed");

        List<Long> shown = browser.findElements(By.cssSelector("#log li[data-thread='" + thread + "']")).stream()
                .map(li -> Long.parseLong(li.getAttribute("data-seq"))).sorted().toList();
        List<Long> stored;
        try (RpcSocket replay = RpcSocket.subscribed(PORT, Rpc.obj("threads", Rpc.arr(thread), "after_seq", 0))) {
            replay.notifications.await(Rpc.endOf(second), WAIT);
            stored = replay.notifications.matching(n -> thread.equals(Rpc.threadId(n))).stream().map(Rpc::seq).sorted().toList();
        }
        assertEquals(stored, shown, "the page holds exactly the thread's notifications, across the restart");
    }

    @Test
    void aRunsCallTreeShowsLiveAsItsCallsGoOutAndComeBack() throws Exception {
        String thread = "dash-tree-" + UUID.randomUUID().toString().substring(0, 8);
        browser.get("http://127.0.0.1:" + PORT + "/dashboard/#thread=" + thread);
        awaitLive();
        Path gate = Files.createDirectories(Path.of("target", "it", "dashboard-gates").toAbsolutePath())
                .resolve(UUID.randomUUID().toString());
        String runId = instance.api.message(thread, "call researcher {call calc {await " + gate + "; 4}; replies}; replies")
                .getString("run_id");
        String tree = "#call-trees li[data-run='" + runId + "'] ";
        WebElement live = waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector(tree + "li[data-agent='researcher'] li[data-agent='calc'][data-status='live']")));
        assertTrue(live.getText().contains("← researcher"), live.getText());
        screenshot("call-tree");
        Files.createFile(gate);
        waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector(tree + "li[data-agent='calc'][data-status='responded']")));
        WebElement researcher = waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector(tree + "li[data-agent='researcher'][data-status='responded'] > .node")));
        assertTrue(researcher.getText().contains("← main") && researcher.getText().contains("“calc: 4”"), researcher.getText());
        assertTrue(researcher.getText().contains(".main.researcher)"), "the local operator sees readable paths: "
                + researcher.getText());
    }

    @Test
    void theFormSendsAMessageAndTheButtonsInterruptAndPause() throws Exception {
        String thread = "dash-form-" + UUID.randomUUID().toString().substring(0, 8);
        browser.get("http://127.0.0.1:" + PORT + "/dashboard/#thread=" + thread);
        awaitLive();

        browser.findElement(By.id("send-text")).sendKeys("sent from the page");
        browser.findElement(By.cssSelector("#send-form button")).click();
        WebElement sent = waiting().until(d -> d.findElements(By.cssSelector("#thread-turns li[data-state='completed']"))
                .stream().filter(li -> li.getText().contains("assistant: sent from the page")).findFirst().orElse(null));
        assertTrue(sent.getText().contains("user: sent from the page"), sent.getText());

        String slow = instance.api.message(thread, "sleep 60000; never").getString("turn_id");
        awaitTurn("#turns tr", slow, "running");
        screenshot("turn-running");
        browser.findElement(By.cssSelector("#turns tr[data-turn='" + slow + "'] button")).click();
        awaitTurn("#turns tr", slow, "interrupted");
        JsonObject run = instance.api.threadRuns(thread).get(1);
        assertEquals("interrupted", run.getJsonObject("error").getString("code"), run.toString());

        try {
            browser.findElement(By.id("pause")).click();
            waiting().until(ExpectedConditions.textToBe(By.id("runtime-state"), "paused"));
            assertEquals("paused", new Rpc(instance.api).result("server/status", Rpc.obj()).getString("state"));
            browser.findElement(By.id("resume")).click();
            waiting().until(ExpectedConditions.textToBe(By.id("runtime-state"), "running"));
        } finally {
            new Rpc(instance.api).result("server/resume", Rpc.obj());
        }
    }

    /**
     * A chat thread's tool approval and credential prompt appear live on another instance's page
     * (running the {@code openresponses} engine against a scripted model server) and are answered
     * there: the approved call runs, the token given in the page lets the waiting fetch run.
     */
    @Test
    void approvalsAndCredentialsWaitOnThePageAndAreAnsweredThere() throws Exception {
        com.sun.net.httpserver.HttpServer model = ScriptedResponses.start(DashboardIT::answer);
        model.createContext("/api/", exchange -> {
            boolean given = "Bearer page-token".equals(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] body = (given ? "page ok" : "denied").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(given ? 200 : 401, body.length);
            try (java.io.OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        int port = 9217;
        java.util.Map<String, String> env = Instance.defaults(TestDatabase.recreate("switchboard_it_dashboard_chat"), port,
                "it-dashboard-chat");
        String base = ScriptedResponses.base(model);
        ScriptedResponses.engine(env, model);
        env.put("SWITCHBOARD_TOOLS", "echo_tool,http_get");
        env.put("SWITCHBOARD_TOOLS_HTTP_GET_ALLOW", base + "/api/");
        env.put("SWITCHBOARD_CHAT_TOOL_APPROVALS", "echo_tool=once");
        env.put("SWITCHBOARD_CHAT_TOOL_CREDENTIALS", "http_get=github");
        try (Instance chat = Instance.start("it-dashboard-chat", port, env)) {
            browser.get("http://127.0.0.1:" + port + "/dashboard/");
            awaitLive();
            String approving = chatThread(chat, "tool from the page");
            WebElement approval = waiting().until(ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector("#waits tr[data-kind='approval'][data-thread='" + approving + "']")));
            assertTrue(approval.getText().contains("echo_tool"), approval.getText());
            String fetching = chatThread(chat, "fetch page");
            WebElement prompt = waiting().until(ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector("#waits tr[data-kind='auth'][data-thread='" + fetching + "']")));
            assertTrue(prompt.getText().contains("credential github"), prompt.getText());
            screenshot("approvals");

            waitingRow("approval", approving).findElement(By.cssSelector("button[data-action='approve']")).click();
            waiting().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#waits tr[data-kind='approval']"), 0));
            assertEquals("tool said: from the page", chatReply(chat, approving, 2));

            WebElement row = waitingRow("auth", fetching);
            row.findElement(By.tagName("input")).sendKeys("page-token");
            row.findElement(By.cssSelector("button[data-action='token']")).click();
            waiting().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#waits tr[data-kind='auth']"), 0));
            assertEquals("tool said: HTTP 200\npage ok", chatReply(chat, fetching, 2));
            assertTrue(browser.findElement(By.id("log")).getText().contains("auth/completed"));
            assertTrue(!browser.findElement(By.tagName("body")).getText().contains("page-token"), "the token is not shown");
        } finally {
            model.stop(0);
        }
    }

    private static WebElement waitingRow(String kind, String thread) {
        return browser.findElement(By.cssSelector("#waits tr[data-kind='" + kind + "'][data-thread='" + thread + "']"));
    }

    private static String chatThread(Instance on, String text) {
        Api.Reply sent = on.api.postJson("/v1/chat/messages", jakarta.json.Json.createObjectBuilder().add("channel", "web")
                .add("content", text).add("thread_id", text).build().toString());
        assertEquals(202, sent.status(), sent.body());
        return sent.json().getString("thread_id");
    }

    /** The response of a chat thread's {@code n}th turn, once it has ended. */
    private static String chatReply(Instance on, String thread, int n) throws InterruptedException {
        String[] reply = new String[1];
        dev.switchboard.testkit.Await.until(WAIT, () -> {
            List<JsonObject> turns = on.api.send(on.api.request("/v1/chat/threads/" + thread).GET()).json()
                    .getJsonArray("turns").getValuesAs(JsonObject.class);
            if (turns.size() < n || turns.get(n - 1).isNull("completed_at")) {
                return false;
            }
            reply[0] = turns.get(n - 1).isNull("response") ? null : turns.get(n - 1).getString("response");
            return true;
        }, "turn " + n + " of " + thread + " ends");
        return reply[0];
    }

    /** The scripted model: {@code tool <x>} calls echo_tool, {@code fetch <x>} http_get; a tool's output is quoted. */
    private static void answer(com.sun.net.httpserver.HttpExchange exchange) throws IOException {
        JsonObject last = ScriptedResponses.last(ScriptedResponses.read(exchange));
        String id = "resp_" + System.nanoTime();
        jakarta.json.JsonArrayBuilder output = jakarta.json.Json.createArrayBuilder();
        JsonObject toolSaid = ScriptedResponses.toolSaid(last);
        if (toolSaid != null) {
            output.add(toolSaid);
        } else {
            String text = last.getJsonArray("content").getJsonObject(0).getString("text");
            String base = "http://127.0.0.1:" + exchange.getLocalAddress().getPort();
            output.add(text.startsWith("tool ")
                    ? ScriptedResponses.functionCall("call_" + id, "echo_tool",
                            jakarta.json.Json.createObjectBuilder().add("text", text.substring(5)).build())
                    : text.startsWith("fetch ")
                    ? ScriptedResponses.functionCall("call_" + id, "http_get",
                            jakarta.json.Json.createObjectBuilder().add("url", base + "/api/" + text.substring(6)).build())
                    : ScriptedResponses.message("heard: " + text));
        }
        ScriptedResponses.stream(exchange, id, output.build());
    }
}
