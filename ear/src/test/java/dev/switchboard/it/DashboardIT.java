package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
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
 * appears and completes live, the page's own form, interrupt and pause buttons work, and after its
 * connection to the server is gone for a while (every connection cut, new ones refused) the page
 * reconnects and holds every notification of the thread — no gap, no duplicate. (That the server
 * resumes a subscription from a sequence number after its own restart is the notification log's,
 * held in-process by {@code NotificationHubTest}, and ResponseStreamIT's over the wire.) Screenshots of the views land in {@code target/dashboard/}.
 */
@Order(5) // among the longest classes: started early in the parallel run (ear/pom.xml)
@ResourceLock(value = HostileInputIT.LOCK, mode = ResourceAccessMode.READ_WRITE) // its pause button and charts: alone there
class DashboardIT {

    /** The shared instance's port. */
    private static int port;
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Instance instance;
    private static WebDriver browser;
    /** The scripted model server the chat test's threads call (they choose the {@code openresponses} engine). */
    private static com.sun.net.httpserver.HttpServer model;

    @BeforeAll
    static void start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("DashboardIT needs " + CHROMIUM + " and " + CHROMEDRIVER
                    + ": run scripts/ensure-chromium.sh (Debian packages chromium and chromium-driver)");
        }
        instance = HostileInputIT.instance();
        port = instance.port;
        Logger.getLogger("org.openqa.selenium").setLevel(Level.SEVERE); // its CDP version notices are not ours
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .withLogOutput(java.io.OutputStream.nullOutputStream()).build();
        browser = new ChromeDriver(service, options);
    }

    /**
     * This class's settings on HostileInputIT's instance, which it shares (one Liberty start instead
     * of two): agents for the call tree, webhooks to loopback, chart samples every second, and the
     * chat test's model server, tools, approvals and credentials — the engine stays scripted, and
     * only a thread that chooses {@code openresponses} calls the model and its tools; approvals and
     * credentials are asked for on chat threads only, which the other classes there never open.
     */
    static Map<String, String> settings(Map<String, String> env) {
        env.put("SWITCHBOARD_AGENTS", "[{\"name\":\"researcher\"},{\"name\":\"calc\",\"peers\":[]}]");
        env.put("SWITCHBOARD_WEBHOOKS_ALLOWED_NETWORKS", "127.0.0.1/32"); // the webhooks view's receiver
        env.put("SWITCHBOARD_MONITOR_SAMPLE_MS", "1000"); // the charts' samples, every second rather than ten
        try {
            model = ScriptedResponses.start(DashboardIT::answer);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        model.createContext("/api/", exchange -> {
            boolean given = "Bearer page-token".equals(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] body = (given ? "page ok" : "denied").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(given ? 200 : 401, body.length);
            try (java.io.OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        String base = ScriptedResponses.base(model);
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_BASE_URL", base + "/v1");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_MODEL", "scripted-model");
        env.put("SWITCHBOARD_TOOLS", "echo_tool,http_get");
        env.put("SWITCHBOARD_TOOLS_HTTP_GET_ALLOW", base + "/api/");
        env.put("SWITCHBOARD_CHAT_TOOL_APPROVALS", "echo_tool=once");
        env.put("SWITCHBOARD_CHAT_TOOL_CREDENTIALS", "http_get=github");
        return env;
    }

    /** The model server, once the instance that calls it has stopped. */
    static void stopModel() {
        if (model != null) {
            model.stop(0);
        }
    }

    @AfterAll
    static void stop() {
        try {
            if (browser != null) {
                browser.quit();
            }
        } finally {
            HostileInputIT.finished(DashboardIT.class);
        }
    }

    private static WebDriverWait waiting() {
        return new WebDriverWait(browser, WAIT);
    }

    private static void awaitLive() {
        try {
            waiting().until(ExpectedConditions.textToBe(By.id("connection"), "live"));
        } catch (org.openqa.selenium.TimeoutException e) {
            // Whose fault: the page's, or the server's (does a WebSocket client of our own subscribe now?).
            String server;
            try (RpcSocket probe = RpcSocket.subscribed(port, Rpc.obj())) {
                server = "a test client subscribes at once: " + probe.subscribeResult;
            } catch (RuntimeException | AssertionError refused) {
                server = "a test client cannot subscribe either: " + refused;
            }
            throw new AssertionError("the page did not go live (" + browser.findElement(By.id("connection")).getText()
                    + ", error line: '" + browser.findElement(By.id("error")).getText() + "'); " + server
                    + "; the server's warnings and errors:\n" + serverComplaints(), e);
        }
    }

    /** The instance's warning and error lines (Liberty's W and E levels), the last 20. */
    private static String serverComplaints() {
        Path log = Instance.outputDir(instance.name).resolve("switchboard/logs/messages.log");
        try (var lines = Files.lines(log)) {
            List<String> complaints = lines.filter(l -> l.matches("^\\[[^]]+\\] \\S+ +\\S+ +[WE] .*")).toList();
            return String.join("\n", complaints.subList(Math.max(0, complaints.size() - 20), complaints.size()));
        } catch (IOException | java.io.UncheckedIOException unreadable) {
            return "(" + log + " unreadable: " + unreadable + ")";
        }
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
    void theChartsShowABurstOfRunsAndTheirLatency() throws Exception {
        browser.get("http://127.0.0.1:" + port + "/dashboard/");
        awaitLive();
        waiting().until(d -> !d.findElement(By.id("charts-updated")).getText().isEmpty()); // the first samples were read

        String prefix = "burst-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        String last = null;
        for (int i = 0; i < 60; i++) {
            last = instance.api.message(prefix + (i % 6), "sleep 20; burst " + i).getString("run_id");
        }
        instance.api.awaitRun(last, 30);

        WebElement runs = browser.findElement(By.id("chart-runs"));
        WebElement latency = browser.findElement(By.id("chart-latency"));
        // The latency's latest point is the last sample with runs: the burst's once it is read. Earlier
        // samples may hold other classes' runs on this instance (answered at once, a few ms each), so
        // the page shows the burst when its latest p50 is at least the 20 ms each of its runs sleeps.
        try {
            waiting().until(d -> Double.parseDouble(runs.getAttribute("data-max")) > 0
                    && !latency.getAttribute("data-latest").isEmpty()
                    && Double.parseDouble(latency.getAttribute("data-latest")) >= 20);
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("the charts did not show the burst, whose runs each take at least 20 ms from"
                    + " acceptance to end: runs " + runs.getText() + " (max " + runs.getAttribute("data-max")
                    + "), latency " + latency.getText() + " (latest p50 " + latency.getAttribute("data-latest") + ")", e);
        }
        assertTrue(Integer.parseInt(runs.getAttribute("data-points")) >= 2, "points over time: " + runs.getAttribute("data-points"));
        assertTrue(runs.getText().contains("succeeded"), runs.getText());
        assertTrue(browser.findElement(By.id("charts-empty")).getAttribute("hidden") != null, "no empty-state note once runs show");
        assertTrue(browser.findElements(By.cssSelector("#chart-runs canvas")).size() == 1, "the chart is drawn");
        screenshot("charts");
    }

    @Test
    void aTurnAppearsAndCompletesLiveAndNothingIsMissingAfterTheServerWasGone() throws Exception {
        String thread = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        try (CuttableProxy proxy = new CuttableProxy(port)) {
            pageThroughAConnectionThatGoes(thread, proxy);
        }
    }

    private void pageThroughAConnectionThatGoes(String thread, CuttableProxy proxy) throws Exception {
        browser.get("http://127.0.0.1:" + proxy.port() + "/dashboard/#thread=" + thread);
        awaitLive();
        waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#cluster tr[data-instance='" + instance.name + "'][data-state='up']")));

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

        proxy.down();
        waiting().until(ExpectedConditions.textToBe(By.id("connection"), "reconnecting"));
        // Posted and ended while the page cannot reach the server: it must replay them from its last seq.
        instance.api.message(thread, "while the page was away");
        JsonObject andAgain = instance.api.message(thread, "and again");
        instance.api.awaitRun(andAgain.getString("run_id"), 30);
        String last = andAgain.getString("turn_id");
        proxy.up();
        awaitLive();
        awaitTurn("#thread-turns li", last, "completed");

        List<Long> shown = browser.findElements(By.cssSelector("#log li[data-thread='" + thread + "']")).stream()
                .map(li -> Long.parseLong(li.getAttribute("data-seq"))).sorted().toList();
        List<Long> stored;
        try (RpcSocket replay = RpcSocket.subscribed(port, Rpc.obj("threads", Rpc.arr(thread), "after_seq", 0))) {
            replay.notifications.await(Rpc.endOf(last), WAIT);
            stored = replay.notifications.matching(n -> thread.equals(Rpc.threadId(n))).stream().map(Rpc::seq).sorted().toList();
        }
        assertEquals(stored, shown, "the page holds exactly the thread's notifications, across the outage");
    }

    /**
     * The threads list shows people's and integrations' threads and leaves out internal ones — an
     * Open Responses chain made before the page opened and one made while it is open — until the
     * box is ticked; the search box finds a thread by part of its key in any case; a search with
     * more matches than a page pages with Next and Previous.
     */
    @Test
    void theThreadsListHidesInternalThreadsUntilAskedAndSearchesAndPagesByKey() throws Exception {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String alpha = "0-people-" + tag + "-alpha"; // keyed to sort first: the list is by key, and other classes share the instance
        String beta = "0-people-" + tag + "-beta";
        for (String thread : List.of(alpha, beta)) {
            instance.api.awaitRun(instance.api.message(thread, "hello " + thread).getString("run_id"), 30);
        }
        // Keyed to sort after every other thread here, so that the first page still holds the people's.
        JsonArrayBuilder batch = Json.createArrayBuilder();
        for (int i = 0; i < 55; i++) {
            batch.add(Json.createObjectBuilder().add("thread_key", String.format("zz-paged-%s-%02d", tag, i)).add("text", "paged"));
        }
        Api.Reply paged = instance.api.postJson("/v1/messages/batch", Json.createObjectBuilder().add("messages", batch).build().toString());
        assertEquals(202, paged.status(), paged.body());
        Api.Reply event = instance.api.postJson("/ingress/events", "{\"source\":\"ci\",\"type\":\"ci.build.failed\","
                + "\"scope\":{\"repo\":\"acme/" + tag + "\"}}");
        assertEquals(202, event.status(), event.body());
        String lane = event.json().getString("session_key");
        assertEquals("event:acme/" + tag, lane);
        String early = "responses/" + respond("made before the page opened");

        browser.get("http://127.0.0.1:" + port + "/dashboard/");
        awaitLive();
        Map<String, String> shown = awaitThreads(rows -> rows.containsKey(alpha) && rows.containsKey(beta)
                && rows.containsKey(lane), "the people's threads and the integration's");
        assertEquals("person", shown.get(alpha), shown::toString);
        assertEquals("integration", shown.get(lane), shown::toString);
        assertFalse(shown.containsKey(early), shown::toString);
        assertFalse(shown.containsValue("internal"), shown::toString);

        // Live: a chain made while the page is open stays off the list. A person's thread made after
        // it comes on through the same notifications, so by then the page has seen the chain's.
        String live = "responses/" + respond("made while the page is open");
        String gamma = "0-people-" + tag + "-gamma";
        instance.api.message(gamma, "after the chain");
        shown = awaitThreads(rows -> rows.containsKey(gamma), "the thread made after the chain");
        assertFalse(shown.containsKey(live), shown::toString);
        assertFalse(shown.containsValue("internal"), shown::toString);

        browser.findElement(By.id("threads-internal")).click();
        shown = awaitThreads(rows -> "internal".equals(rows.get(early)) && "internal".equals(rows.get(live)),
                "the internal threads, once asked for");
        assertEquals("person", shown.get(alpha), shown::toString);
        screenshot("threads-internal");

        WebElement search = browser.findElement(By.id("thread-search"));
        search.sendKeys(("-" + tag + "-BeTa").toUpperCase(java.util.Locale.ROOT));
        awaitThreads(rows -> rows.keySet().equals(Set.of(beta)), "only the thread whose key contains the text");
        retype(search, live.substring(live.length() - 12).toUpperCase(java.util.Locale.ROOT));
        awaitThreads(rows -> rows.keySet().equals(Set.of(live)), "the internal thread found by part of its key");
        browser.findElement(By.id("threads-internal")).click();
        awaitThreads(Map::isEmpty, "nothing: the only match is internal");

        // Retyping empties the box for a moment, and the unfiltered list also fills a page of 50: the
        // page counts only once every row on it matches.
        String pageKeys = "zz-paged-" + tag;
        retype(search, pageKeys);
        Map<String, String> first = awaitThreads(rows -> rows.size() == 50
                && rows.keySet().stream().allMatch(k -> k.startsWith(pageKeys)), "the first page of 55 matches");
        assertFalse(browser.findElement(By.id("threads-prev")).isEnabled(), "the first page has none before it");
        browser.findElement(By.id("threads-next")).click();
        Map<String, String> second = awaitThreads(rows -> rows.size() == 5, "the second page: the last 5 matches");
        assertTrue(second.keySet().stream().noneMatch(first::containsKey), second + " after " + first.keySet());
        assertFalse(browser.findElement(By.id("threads-next")).isEnabled(), "nothing after the last page");
        screenshot("threads-search");
        browser.findElement(By.id("threads-prev")).click();
        assertEquals(first.keySet(), awaitThreads(rows -> rows.size() == 50, "the first page again").keySet());
    }

    /** The id of a response of the echo engine to {@code input}: its chain is thread {@code responses/<id>}. */
    private static String respond(String input) {
        Api.Reply r = instance.api.postJson("/v1/responses", Json.createObjectBuilder().add("model", "echo")
                .add("input", input).build().toString());
        assertEquals(200, r.status(), r.body());
        return r.json().getString("id");
    }

    private static void retype(WebElement input, String text) {
        input.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
        input.sendKeys(text);
    }

    /** The threads list's rows, read in one go: thread key to kind, in the page's order. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> shownThreads() {
        List<Object> rows = (List<Object>) ((JavascriptExecutor) browser).executeScript("return [...document"
                + ".querySelectorAll('#threads tr[data-thread-id]')].map(r => [r.dataset.threadId, r.dataset.kind]);");
        Map<String, String> shown = new LinkedHashMap<>();
        for (Object row : rows) {
            List<Object> pair = (List<Object>) row;
            shown.put((String) pair.get(0), (String) pair.get(1));
        }
        return shown;
    }

    private static Map<String, String> awaitThreads(Predicate<Map<String, String>> condition, String what) {
        try {
            return waiting().until(d -> {
                Map<String, String> rows = shownThreads();
                return condition.test(rows) ? rows : null;
            });
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("the threads list never showed " + what + "; it shows " + shownThreads() + " ("
                    + browser.findElement(By.id("threads-status")).getText() + ")", e);
        }
    }

    @Test
    void theWebhooksViewRegistersAnEndpointShowsItsSecretOnceAndReplaysADelivery() throws Exception {
        List<String> deliveries = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer receiver = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 16);
        receiver.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            deliveries.add(exchange.getRequestHeaders().getFirst("webhook-id"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try {
            browser.get("http://127.0.0.1:" + port + "/dashboard/");
            awaitLive();
            String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
            browser.findElement(By.id("webhook-url")).sendKeys(url);
            browser.findElement(By.cssSelector("#webhook-event-types input[data-event-type='turn.completed']")).click();
            browser.findElement(By.id("webhook-add")).click();
            WebElement secret = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("webhook-secret-value")));
            assertTrue(secret.getText().startsWith("whsec_"), secret.getText());
            WebElement row = waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#webhooks tr[data-endpoint-id]")));
            assertTrue(row.getText().contains(url), row.getText());
            browser.findElement(By.id("webhook-secret-dismiss")).click();
            assertTrue(browser.findElements(By.cssSelector("#webhook-secret-value")).stream()
                    .noneMatch(e -> e.isDisplayed() && e.getText().startsWith("whsec_")), "the secret is gone once dismissed");

            instance.api.message("hooked-" + UUID.randomUUID().toString().substring(0, 8), "heard by the webhook");
            dev.switchboard.testkit.Await.until(WAIT, () -> deliveries.size() == 1, "the turn's webhook delivered");
            row.findElement(By.cssSelector("button[data-action='deliveries']")).click();
            WebElement message = waiting().until(ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector("#webhook-messages tr[data-message-id='" + deliveries.get(0) + "'][data-state='delivered']")));
            screenshot("webhooks");
            message.findElement(By.cssSelector("button[data-action='replay']")).click();
            dev.switchboard.testkit.Await.until(WAIT, () -> deliveries.size() == 2, "the replay delivered");
            assertEquals(deliveries.get(0), deliveries.get(1), "a replay keeps its webhook-id");
            waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#webhook-attempts tr[data-message-id='"
                    + deliveries.get(0) + "'][data-outcome='delivered']")));
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void aRunsCallTreeShowsLiveAsItsCallsGoOutAndComeBack() throws Exception {
        String thread = "dash-tree-" + UUID.randomUUID().toString().substring(0, 8);
        browser.get("http://127.0.0.1:" + port + "/dashboard/#thread=" + thread);
        awaitLive();
        Path gate = Files.createDirectories(Path.of("target", "it", "dashboard-gates").toAbsolutePath())
                .resolve(UUID.randomUUID().toString());
        String runId = instance.api.message(thread, "call researcher {call calc {await " + gate + "; 4}; replies}; replies")
                .getString("run_id");
        String tree = "#call-trees li[data-run='" + runId + "'] ";
        textShown(tree + "li[data-agent='researcher'] li[data-agent='calc'][data-status='live']", t -> t.contains("← researcher"));
        screenshot("call-tree");
        Files.createFile(gate);
        waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector(tree + "li[data-agent='calc'][data-status='responded']")));
        String researcher = textShown(tree + "li[data-agent='researcher'][data-status='responded'] > .node",
                t -> t.contains("← main") && t.contains("“calc: 4”"));
        assertTrue(researcher.contains(".main.researcher)"), "the local operator sees readable paths: " + researcher);
    }

    /**
     * The text of the element {@code css} finds once it satisfies {@code shown}. The tree is drawn
     * again on every hop: the element is looked up afresh each time, never read after it was replaced.
     */
    private static String textShown(String css, java.util.function.Predicate<String> shown) {
        String[] last = {null};
        try {
            return waiting().ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(d -> {
                List<WebElement> found = d.findElements(By.cssSelector(css));
                last[0] = found.isEmpty() ? null : found.get(0).getText();
                return last[0] != null && shown.test(last[0]) ? last[0] : null;
            });
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(css + " did not show what was expected; last seen: " + last[0], e);
        }
    }

    @Test
    void theFormSendsAMessageAndTheButtonsInterruptAndPause() throws Exception {
        String thread = "dash-form-" + UUID.randomUUID().toString().substring(0, 8);
        browser.get("http://127.0.0.1:" + port + "/dashboard/#thread=" + thread);
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
     * A chat thread's tool approval and credential prompt appear live on the page and are answered
     * there: the approved call runs, the token given in the page lets the waiting fetch run. The
     * threads run the {@code openresponses} engine against a scripted model server, chosen for each
     * thread through the runtime endpoint (the instance's own engine stays the scripted one the
     * other tests drive).
     */
    @Test
    void approvalsAndCredentialsWaitOnThePageAndAreAnsweredThere() throws Exception {
        browser.get("http://127.0.0.1:" + port + "/dashboard/");
        awaitLive();
        String approving = chatThread("tool from the page");
        WebElement approval = waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#waits tr[data-kind='approval'][data-thread='" + approving + "']")));
        assertTrue(approval.getText().contains("echo_tool"), approval.getText());
        String fetching = chatThread("fetch page");
        WebElement prompt = waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#waits tr[data-kind='auth'][data-thread='" + fetching + "']")));
        assertTrue(prompt.getText().contains("credential github"), prompt.getText());
        screenshot("approvals");

        waitingRow("approval", approving).findElement(By.cssSelector("button[data-action='approve']")).click();
        waiting().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#waits tr[data-kind='approval']"), 0));
        assertEquals("tool said: from the page", chatReply(approving, 2));

        WebElement row = waitingRow("auth", fetching);
        row.findElement(By.tagName("input")).sendKeys("page-token");
        row.findElement(By.cssSelector("button[data-action='token']")).click();
        waiting().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#waits tr[data-kind='auth']"), 0));
        assertEquals("tool said: HTTP 200\npage ok", chatReply(fetching, 2));
        assertTrue(browser.findElement(By.id("log")).getText().contains("auth/completed"));
        assertTrue(!browser.findElement(By.tagName("body")).getText().contains("page-token"), "the token is not shown");
    }

    private static WebElement waitingRow(String kind, String thread) {
        return browser.findElement(By.cssSelector("#waits tr[data-kind='" + kind + "'][data-thread='" + thread + "']"));
    }

    /** A new chat thread on the {@code openresponses} engine, sent {@code text} as its first message; its id. */
    private static String chatThread(String text) {
        Api.Reply made = instance.api.send(instance.api.request("/v1/chat/threads").POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(201, made.status(), made.body());
        String thread = made.json().getString("id");
        Api.Reply chosen = instance.api.send(instance.api.request("/v1/threads/" + thread + "/model")
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"provider\":\"openresponses\",\"model_id\":\"scripted-model\"}")));
        assertEquals(200, chosen.status(), chosen.body());
        Api.Reply sent = instance.api.postJson("/v1/chat/messages", jakarta.json.Json.createObjectBuilder().add("channel", "web")
                .add("content", text).add("thread_id", thread).build().toString());
        assertEquals(202, sent.status(), sent.body());
        assertEquals(thread, sent.json().getString("thread_id"), "the message went to the thread made for it");
        return thread;
    }

    /** The response of a chat thread's {@code n}th turn, once it has ended. */
    private static String chatReply(String thread, int n) throws InterruptedException {
        Instance on = instance;
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
