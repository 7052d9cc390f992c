package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alert rules and the Grafana dashboard under {@code ops/}, checked without a server: the rules
 * by promtool (syntax, then their unit tests on synthetic series), the dashboard's queries by
 * promtool's PromQL parser, and both for what an operator relies on — a severity, a runbook that
 * exists, a data source and instance choice on every panel. That the metrics they name exist is
 * OperationsRulesIT's part, against a running instance.
 */
class OperationsRulesTest {

    private static final Pattern ALERT = Pattern.compile("^ {6}- alert: (\\w+)$", Pattern.MULTILINE);
    private static final Pattern HEADING = Pattern.compile("^#+ (.+)$", Pattern.MULTILINE);

    @TempDir
    Path work;

    @Test
    void theRulesPassPromtoolsCheck() {
        OpsFiles.Outcome check = OpsFiles.promtool("check", "rules", OpsFiles.RULES.toString());
        assertEquals(0, check.exit(), check.output());
        assertTrue(check.output().contains("SUCCESS: " + alerts().size() + " rules found"), check.output());
    }

    @Test
    void theRulesPassTheirUnitTests() {
        OpsFiles.Outcome test = OpsFiles.promtool("test", "rules", OpsFiles.RULES_TESTS.toString());
        assertEquals(0, test.exit(), test.output());
        assertTrue(test.output().contains("SUCCESS"), test.output());
    }

    @Test
    void everyAlertIsUnitTestedToFire() {
        // A test case that expects an alert names it in exp_alerts' parent; one that only expects
        // silence does not prove the alert can fire, so each alert needs an expected firing.
        String tests = OpsFiles.read(OpsFiles.RULES_TESTS);
        for (String alert : alerts()) {
            Matcher firing = Pattern.compile("alertname: " + alert + "\n\\s+exp_alerts:\n\\s+- exp_labels:").matcher(tests);
            assertTrue(firing.find(), alert + " has no promtool test case in which it fires");
        }
    }

    @Test
    void everyAlertWaitsSaysHowSevereAndLinksARunbookThatExists() {
        String rules = OpsFiles.read(OpsFiles.RULES);
        Set<String> anchors = anchors(OpsFiles.read(OpsFiles.OPERATIONS));
        List<String> names = alerts();
        assertFalse(names.isEmpty(), "no alert in " + OpsFiles.RULES);
        Matcher m = ALERT.matcher(rules);
        List<Integer> starts = new ArrayList<>();
        while (m.find()) {
            starts.add(m.start());
        }
        starts.add(rules.length());
        for (int i = 0; i < names.size(); i++) {
            String alert = names.get(i);
            String block = rules.substring(starts.get(i), starts.get(i + 1));
            assertTrue(Pattern.compile("\n {8}for: \\d+[smh]\n").matcher(block).find(), alert + " has no for:");
            assertTrue(Pattern.compile("\n {10}severity: (warning|critical)\n").matcher(block).find(),
                    alert + " has no severity warning or critical");
            assertTrue(block.contains("\n          summary: \""), alert + " has no summary");
            assertTrue(block.contains("\n          description: \""), alert + " has no description");
            Matcher runbook = Pattern.compile("\n {10}runbook: docs/operations\\.md#([a-z0-9-]+)\n").matcher(block);
            assertTrue(runbook.find(), alert + " has no runbook in docs/operations.md");
            assertTrue(anchors.contains(runbook.group(1)),
                    alert + "'s runbook #" + runbook.group(1) + " is not a heading of docs/operations.md");
        }
    }

    @Test
    void theDashboardIsImportableWithItsDataSourceAndInstanceChoice() {
        JsonObject dashboard = OpsFiles.dashboard();
        assertEquals(39, dashboard.getInt("schemaVersion"));
        assertEquals("DS_PROMETHEUS", dashboard.getJsonArray("__inputs").getJsonObject(0).getString("name"));
        List<String> variables = new ArrayList<>();
        dashboard.getJsonObject("templating").getJsonArray("list").forEach(v -> variables.add(
                v.asJsonObject().getString("name") + ":" + v.asJsonObject().getString("type")));
        assertEquals(List.of("DS_PROMETHEUS:datasource", "instance:query"), variables);

        Set<Integer> ids = new HashSet<>();
        List<int[]> areas = new ArrayList<>();
        for (JsonValue value : dashboard.getJsonArray("panels")) {
            JsonObject panel = value.asJsonObject();
            String title = panel.getString("title");
            assertTrue(ids.add(panel.getInt("id")), "two panels have id " + panel.getInt("id"));
            assertEquals("${DS_PROMETHEUS}", panel.getJsonObject("datasource").getString("uid"), title);
            assertFalse(panel.getJsonArray("targets").isEmpty(), title + " has no query");
            for (JsonValue target : panel.getJsonArray("targets")) {
                assertEquals("${DS_PROMETHEUS}", target.asJsonObject().getJsonObject("datasource").getString("uid"), title);
                assertTrue(target.asJsonObject().getString("expr").contains("instance=~\"$instance\""),
                        title + "'s query ignores the instance choice: " + target.asJsonObject().getString("expr"));
            }
            JsonObject grid = panel.getJsonObject("gridPos");
            int[] area = {grid.getInt("x"), grid.getInt("y"), grid.getInt("w"), grid.getInt("h")};
            assertTrue(area[0] + area[2] <= 24, title + " is wider than the dashboard");
            for (int[] other : areas) {
                boolean apart = area[0] + area[2] <= other[0] || other[0] + other[2] <= area[0]
                        || area[1] + area[3] <= other[1] || other[1] + other[3] <= area[1];
                assertTrue(apart, title + " overlaps another panel");
            }
            areas.add(area);
        }
    }

    @Test
    void theDashboardsQueriesAreValidPromQl() throws IOException {
        // promtool has no query parser of its own; recording rules are parsed as PromQL, so each
        // query becomes one, with Grafana's variables given values Prometheus would see.
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        List<String> exprs = OpsFiles.dashboardExpressions();
        for (int i = 0; i < exprs.size(); i++) {
            String expr = exprs.get(i).replace("$__rate_interval", "1m").replace("$instance", ".*");
            assertFalse(expr.contains("$"), "a Grafana variable the test does not know: " + exprs.get(i));
            rules.append("      - record: dashboard:query_").append(i).append('\n')
                    .append("        expr: '").append(expr.replace("'", "''")).append("'\n");
        }
        Path file = work.resolve("dashboard-queries.yml");
        Files.writeString(file, rules, StandardCharsets.UTF_8);
        OpsFiles.Outcome check = OpsFiles.promtool("check", "rules", file.toString());
        assertEquals(0, check.exit(), check.output() + "\n" + rules);
        assertTrue(check.output().contains("SUCCESS: " + exprs.size() + " rules found"), check.output());
    }

    @Test
    void theDocsPrometheusConfigurationLoadsTheRules() throws IOException {
        // docs/operations.md's prometheus.yml, with the rules file and the metrics token's file beside it as the page says
        Path config = work.resolve("prometheus.yml");
        Files.writeString(config, blockAfter(OpsFiles.read(OpsFiles.OPERATIONS), "A `prometheus.yml`:", "yaml"),
                StandardCharsets.UTF_8);
        Files.copy(OpsFiles.RULES, work.resolve("switchboard-alerts.yml"));
        Files.writeString(work.resolve("switchboard-metrics-token"), "metrics-token-0123456789", StandardCharsets.UTF_8);
        OpsFiles.Outcome check = OpsFiles.promtool("check", "config", config.toString());
        assertEquals(0, check.exit(), check.output());
        assertTrue(check.output().contains("SUCCESS: 1 rule files found")
                && check.output().contains("SUCCESS: " + alerts().size() + " rules found"), check.output());
    }

    @Test
    void theDocsPromtoolCommandsRunAsPasted() throws IOException, InterruptedException {
        String block = blockAfter(OpsFiles.read(OpsFiles.OPERATIONS), "Check both, from the repository's root", "bash");
        assertTrue(block.contains("promtool test rules"), block);
        // the page's commands find promtool on the PATH; the build found it (OpsFiles.promtool)
        String path = OpsFiles.promtool().getParent() + File.pathSeparator + System.getenv().getOrDefault("PATH", "");
        Path output = work.resolve("block.out");
        ProcessBuilder bash = new ProcessBuilder("bash", "-euo", "pipefail", "-c", block).directory(OpsFiles.ROOT.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        bash.environment().put("PATH", path);
        Process process = bash.start();
        assertTrue(process.waitFor(1, TimeUnit.MINUTES), "the page's promtool commands ran for a minute");
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), printed);
        assertTrue(printed.contains("SUCCESS: " + alerts().size() + " rules found") && printed.contains("Unit Testing:"), printed);
    }

    /** The first {@code ```language} block after {@code marker} in {@code markdown}. */
    private static String blockAfter(String markdown, String marker, String language) {
        int at = markdown.indexOf(marker);
        assertTrue(at >= 0, "no \"" + marker + "\" in docs/operations.md");
        String fence = "```" + language + "\n";
        int start = markdown.indexOf(fence, at);
        assertTrue(start >= 0, "no " + language + " block after \"" + marker + "\"");
        start += fence.length();
        return markdown.substring(start, markdown.indexOf("```", start));
    }

    private static List<String> alerts() {
        List<String> names = new ArrayList<>();
        Matcher m = ALERT.matcher(OpsFiles.read(OpsFiles.RULES));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> anchors(String markdown) {
        Set<String> anchors = new HashSet<>();
        // a shell comment inside a code block is not a heading
        Matcher m = HEADING.matcher(markdown.replaceAll("(?s)```.*?```", ""));
        while (m.find()) {
            anchors.add(m.group(1).trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
        }
        return anchors;
    }
}
