package dev.switchboard.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlowestTestsTest {

    @TempDir
    Path root;

    /** A report as Failsafe writes it; for a parameterized class its "tests" attribute says 0, its cases are all there. */
    private void report(String module, String dir, String className, String seconds, int tests) throws IOException {
        Path reports = Files.createDirectories(root.resolve(module).resolve("target").resolve(dir));
        String cases = ("<testcase name=\"t()[1]\" classname=\"" + className + "[1]\" time=\"0.1\"/>").repeat(tests);
        Files.writeString(reports.resolve("TEST-" + className + ".xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuite name=\"" + className + "\" time=\"" + seconds + "\" tests=\"0\" errors=\"0\" "
                + "skipped=\"0\" failures=\"0\">" + cases + "</testsuite>");
    }

    @Test
    void theSlowestClassesOfEveryModuleAndExecutionComeFirstWithWhereTheyRan() throws IOException {
        report("ear", "failsafe-reports", "dev.switchboard.it.MultiInstanceIT", "1,093.5", 5);
        report("ear", "failsafe-reports-h2", "dev.switchboard.it.JagcConformanceIT", "13.4", 14);
        report("ejb-core", "surefire-reports", "dev.switchboard.core.lane.LaneRunnerTest", "0.4", 9);
        report("ejb-core", "failsafe-reports", "dev.switchboard.core.it.LaneLedgerIT", "18.4", 8);
        Files.createDirectories(root.resolve("docs"));

        String table = SlowestTests.table(SlowestTests.read(root, 0), 3);

        assertEquals(List.of(
                "The 3 slowest of 4 test classes (36 tests, 1126 s of class time in all):",
                "   1093.5 s  MultiInstanceIT                5 tests  ear failsafe",
                "     18.4 s  LaneLedgerIT                   8 tests  ejb-core failsafe",
                "     13.4 s  JagcConformanceIT             14 tests  ear failsafe h2"), table.lines().toList());
    }

    @Test
    void reportsOfEarlierBuildsAreLeftOut() throws IOException {
        report("ear", "failsafe-reports", "dev.switchboard.it.OldIT", "99", 1);
        Files.setLastModifiedTime(root.resolve("ear/target/failsafe-reports/TEST-dev.switchboard.it.OldIT.xml"),
                FileTime.fromMillis(1_000));
        report("ear", "failsafe-reports", "dev.switchboard.it.NewIT", "2", 1);

        assertEquals(List.of("NewIT"), SlowestTests.read(root, 2_000).stream().map(SlowestTests.ClassTime::className).toList());
    }

    @Test
    void theStartsOfTestInstancesAreCountedFromTheirLogSinceTheBuildBegan() throws IOException {
        Path log = ServerInstance.startsLog(root);
        Files.createDirectories(log.getParent());
        Files.writeString(log, "100 start it-old\n2000 start it-a\n2001 start it-b\n2500 restart it-a\n");

        assertEquals("Liberty starts of test instances: 3 (1 of them restarts), besides the fresh clone's server.", SlowestTests.starts(root, 1000));
        assertEquals("Liberty starts of test instances: 0 (0 of them restarts), besides the fresh clone's server.", SlowestTests.starts(root.resolve("elsewhere"), 0));
    }
}
