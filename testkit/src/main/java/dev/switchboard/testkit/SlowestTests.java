package dev.switchboard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;

/**
 * Prints the slowest test classes of a build, read from the Surefire and Failsafe reports under
 * every module's {@code target/} — what {@code ./mvnw verify} shows at its end, so that a class
 * growing slower is seen the day it does. A class's time is its wall time, its instances' starts
 * and stops included.
 *
 * <p>{@code SlowestTests <project root> [how many] [build]}: with {@code build}, only the reports
 * written since this JVM started — run in Maven's own JVM ({@code exec:java}), this build's.
 */
public final class SlowestTests {

    /** One test class of one test execution (a report file). */
    record ClassTime(String className, String execution, double seconds, int tests) {
    }

    private SlowestTests() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        long since = args.length > 2 && args[2].equals("build") ? ManagementFactory.getRuntimeMXBean().getStartTime() : 0;
        List<ClassTime> times = read(root, since);
        System.out.println(table(times, top));
        System.out.println(starts(root, since));
    }

    /**
     * How many test instances of Liberty the build started, restarts included, from the lines
     * {@link ServerInstance} adds to its log since {@code since} (the fresh clone's server is
     * started otherwise, and named apart).
     */
    static String starts(Path root, long since) {
        Path log = ServerInstance.startsLog(root);
        List<String[]> lines;
        try {
            lines = !Files.exists(log) ? List.of() : Files.readAllLines(log).stream().map(l -> l.split(" ", 3))
                    .filter(f -> f.length == 3 && Long.parseLong(f[0]) >= since).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long restarts = lines.stream().filter(f -> f[1].equals("restart")).count();
        return String.format(Locale.ROOT, "Liberty starts of test instances: %d (%d of them restarts), besides the fresh"
                + " clone's server.", lines.size(), restarts);
    }

    /** Every class of every {@code TEST-*.xml} report in {@code <module>/target/*-reports*} written since {@code since}. */
    static List<ClassTime> read(Path root, long since) {
        try (Stream<Path> reports = Files.find(root, 4, (file, attributes) -> isReport(root, file)
                && attributes.lastModifiedTime().toMillis() >= since)) {
            return reports.map(report -> parse(report, execution(root, report.getParent()))).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code <module>/target/(surefire|failsafe)-reports*}{@code /TEST-*.xml}, directly below the root. */
    private static boolean isReport(Path root, Path file) {
        Path relative = root.relativize(file);
        return relative.getNameCount() == 4 && relative.getName(1).toString().equals("target")
                && relative.getName(2).toString().matches("(surefire|failsafe)-reports.*")
                && relative.getName(3).toString().matches("TEST-.*\\.xml");
    }

    /** "ear failsafe", "ejb-core failsafe h2": the module and the report directory's kind. */
    private static String execution(Path root, Path reportDir) {
        String module = root.relativize(reportDir.getParent().getParent()).toString();
        String kind = reportDir.getFileName().toString().replace("-reports", "").replace('-', ' ');
        return module + " " + kind;
    }

    private static ClassTime parse(Path report, String execution) {
        try {
            Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile()).getDocumentElement();
            String name = suite.getAttribute("name");
            // Test cases counted, not the suite's "tests": a parameterized class's invocations are its cases.
            return new ClassTime(name.substring(name.lastIndexOf('.') + 1), execution,
                    Double.parseDouble(suite.getAttribute("time").replace(",", "")), suite.getElementsByTagName("testcase").getLength());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the test report " + report, e);
        }
    }

    static String table(List<ClassTime> times, int top) {
        if (times.isEmpty()) {
            return "No test report was written.";
        }
        double total = times.stream().mapToDouble(ClassTime::seconds).sum();
        int tests = times.stream().mapToInt(ClassTime::tests).sum();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "The %d slowest of %d test classes (%d tests, %.0f s of class time in all):%n",
                Math.min(top, times.size()), times.size(), tests, total));
        times.stream().sorted(Comparator.comparingDouble(ClassTime::seconds).reversed()).limit(top)
                .forEach(t -> out.append(String.format(Locale.ROOT, "  %7.1f s  %-28s %3d tests  %s%n",
                        t.seconds(), t.className(), t.tests(), t.execution())));
        return out.toString().stripTrailing();
    }
}
