package dev.switchboard.core.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import dev.switchboard.core.lane.LanePayload;
import dev.switchboard.core.lane.RunPayload;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.switchboard.core.lane.Lane;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The lane is a boundary: its rows — a thread's lease and run sequence, every write of a run (its
 * insertion, state, content, deletion) — are written by the lane's own package-private statements
 * only, and a feature reaches them through the lane's API ({@code Lanes}, {@code LaneLedger},
 * {@code FinishedRuns}), never by SQL of its own.
 */
class LaneBoundaryTest {

    private static final String LANE = "dev.switchboard.core.lane";

    /** SQL that writes a lane's rows or reads its tables, as it would be spelled in a statement's text (lower case). */
    private static final List<String> LANE_WRITES = List.of("next_seq", "lease_until", "lease_run_id", "lease_attempt",
            "set lease_owner", "insert into runs", "update runs", "delete from runs", "claimed_by =", "insert into lanes",
            "update lanes", "delete from lanes", "from lanes", "join lanes", "from runs", "join runs");

    /** Words of the features' concepts that no component of a lane's record names (camel-case words). */
    private static final List<String> FEATURE_WORDS = List.of("user", "turn", "delivery", "engine", "runtime", "model",
            "kind", "source", "input", "workspace");

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.switchboard");

    @Test
    void theLanesStatementsAreItsOwn() throws ClassNotFoundException {
        Class<?> rows = Class.forName(LANE + ".LaneRows");
        assertFalse(Modifier.isPublic(rows.getModifiers()), "LaneRows is the lane's, package-private");
    }

    /** A lane as read is the lane's to make: a feature cannot forge a lease to hand back to it. */
    @Test
    void onlyTheLaneMakesALane() {
        noClasses().that().resideOutsideOfPackage(LANE + "..").should().callConstructor(Lane.class, long.class,
                String.class, Long.class, String.class, Integer.class, long.class, long.class, LanePayload.class)
                .check(CLASSES);
    }

    /**
     * A run's input and output are opaque to the lane: no type of its names a user, a turn, a
     * delivery mode, an engine or the thread's runtime — what a run carries for the features is a
     * {@link RunPayload} (a thread's, a {@link LanePayload}) the lane reads and writes through the
     * plugged-in {@code PayloadColumns}, its output a JSON text.
     */
    @Test
    void theLanesTypesCarryNoFeaturesConcept() throws ClassNotFoundException {
        List<String> offenders = new ArrayList<>();
        for (JavaClass c : CLASSES.that(JavaClass.Predicates.resideInAPackage(LANE))) {
            if (!c.isRecord()) {
                continue;
            }
            for (RecordComponent component : Class.forName(c.getName()).getRecordComponents()) {
                List<String> words = List.of(component.getName().split("(?=[A-Z])")).stream()
                        .map(w -> w.toLowerCase(Locale.ROOT)).toList();
                if (words.stream().anyMatch(FEATURE_WORDS::contains)) {
                    offenders.add(c.getSimpleName() + "." + component.getName());
                }
            }
        }
        assertEquals(List.of(), offenders);
        noClasses().that().resideInAPackage(LANE + "..").should().dependOnClassesThat()
                .resideInAnyPackage("dev.switchboard.core.thread..", "dev.switchboard.core.user..")
                .orShould().dependOnClassesThat().haveSimpleName("RunKind")
                .because("what a run is, whom it is for and what runs it are the features' (RunPayload, LanePayload)")
                .check(CLASSES);
    }

    /**
     * No statement outside the lane writes a lease, a run's number, or a run (inserts, updates,
     * deletes), or reads {@code lanes} or {@code runs}: a feature reads runs through {@code RunReads}.
     */
    @Test
    void noStatementOutsideTheLaneWritesItsRows() {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<String> offenders;
        try (Stream<Path> sources = Stream.of("ejb-core", "web-rest", "websocket-endpoint")
                .map(m -> root.resolve(m).resolve("src/main/java")).filter(Files::isDirectory)
                .flatMap(LaneBoundaryTest::walk)) {
            offenders = sources.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getParent().endsWith(Path.of("dev/switchboard/core/lane")))
                    .flatMap(p -> lines(p).stream().filter(LaneBoundaryTest::writesALane).map(l -> p.getFileName() + ": " + l.strip()))
                    .toList();
        }
        assertEquals(List.of(), offenders);
    }

    private static boolean writesALane(String line) {
        String sql = line.toLowerCase(Locale.ROOT);
        return LANE_WRITES.stream().anyMatch(sql::contains);
    }

    private static Stream<Path> walk(Path dir) {
        try {
            return Files.walk(dir).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
