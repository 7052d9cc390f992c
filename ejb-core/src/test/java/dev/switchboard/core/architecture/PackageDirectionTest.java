package dev.switchboard.core.architecture;

import dev.switchboard.core.execution.RunContent;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import dev.switchboard.core.sql.Store;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The direction of ejb-core's packages, so a reader sees where a message goes by the package it is
 * in: a package may use only packages on levels below its own, never its peers or anything above.
 * The lane is a generic durable queue that knows only the clock, metrics and SQL: features plug in
 * above it through interfaces it owns (a run's work, a run's end, sweeps, run start and end for
 * turns, a payload's columns), and a thread is made with its lane; what a run executes — an engine
 * call, as the features prepare it — sits right above it; delegation, runs and turns are built on it; ingress hands events to runs; the chat gateway applies the conversation
 * rules with turns; the RPC methods sit on top.
 */
class PackageDirectionTest {

    private static final String CORE = "dev.switchboard.core";

    /** Top to bottom. */
    private static final List<List<String>> LEVELS = List.of(
            List.of("rpc", "status", "retention"),
            List.of("chat"),
            List.of("ingress", "responses", "conversation", "webhook", "monitor"),
            List.of("turn"),
            List.of("run", "runtime"),
            List.of("delegation"),
            List.of("execution"),
            List.of("lifecycle", "thread"),
            List.of("idempotency", "notify", "engine", "user", "schema", "history", "credential"),
            List.of("lane"),
            List.of("clock", "input", "workspace"),
            List.of("json", "metrics", "sql"));

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);

    @Test
    void everyPackageHasADeclaredLevel() {
        Set<String> found = CLASSES.stream().map(JavaClass::getPackageName)
                .filter(p -> p.startsWith(CORE + "."))
                .map(p -> p.substring(CORE.length() + 1).split("\\.")[0])
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> declared = LEVELS.stream().flatMap(List::stream).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(declared, found, "a new package needs its place in LEVELS");
    }

    @Test
    void packagesUseOnlyPackagesBelowThem() {
        LayeredArchitecture architecture = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (List<String> level : LEVELS) {
            for (String p : level) {
                architecture = architecture.layer(p).definedBy(CORE + "." + p + "..");
            }
        }
        for (int i = 0; i < LEVELS.size(); i++) {
            List<String> below = new ArrayList<>();
            LEVELS.subList(i + 1, LEVELS.size()).forEach(below::addAll);
            for (String p : LEVELS.get(i)) {
                architecture = below.isEmpty() ? architecture.whereLayer(p).mayNotAccessAnyLayer()
                        : architecture.whereLayer(p).mayOnlyAccessLayers(below.toArray(String[]::new));
            }
        }
        architecture.check(CLASSES);
    }

    /**
     * The lane learns no feature: what a run is ({@code RunContent#kind}) is the features' business,
     * and no feature's engine wrapper or setting is named in it. Above the layering (which already
     * keeps it below them), this names the feature classes of lower packages too.
     */
    @Test
    void theLaneKnowsNoFeature() {
        noClasses().that().resideInAPackage(CORE + ".lane..").should().dependOnClassesThat()
                .resideInAnyPackage(CORE + ".delegation..", CORE + ".workspace..", CORE + ".responses..",
                        CORE + ".chat..", CORE + ".ingress..", CORE + ".history..", CORE + ".turn..", CORE + ".run..",
                        CORE + ".conversation..", CORE + ".engine.tool..", CORE + ".engine.model..")
                .orShould().dependOnClassesThat().haveSimpleNameStartingWith("Workspace")
                .orShould().dependOnClassesThat().haveSimpleName("PathLedger")
                .orShould().dependOnClassesThat().haveSimpleName("PathLanes")
                .because("features plug in above the lane (RunWork, RunEnding, LaneSweep)")
                .check(CLASSES);
    }

    /**
     * The lane runs work it does not know: no engine, no run's progress, no preparation of an
     * execution is named in it — {@code RunWork} is its one plug for what an execution does.
     */
    @Test
    void theLaneNamesNoEngine() {
        noClasses().that().resideInAPackage(CORE + ".lane..").should().dependOnClassesThat()
                .resideInAnyPackage(CORE + ".engine..", CORE + ".lifecycle..", CORE + ".execution..")
                .because("what an execution runs plugs in through RunWork (core.execution's EngineWork)")
                .check(CLASSES);
    }

    /**
     * Features decide by a run's kind, set at ingest; its source is a label the run carries, read
     * by a feature only for a delegated call's agent (and shown to clients with the run).
     */
    @Test
    void noFeatureDecidesByARunsSource() {
        noClasses().that().resideOutsideOfPackages(CORE + ".execution..", CORE + ".delegation..", CORE + ".run..").should()
                .callMethod(RunContent.class, "source")
                .check(CLASSES);
    }

    /**
     * Rows are the stores' business: only a store ({@link Store}) or a type nested in one touches a
     * persistence entity; every other class sees plain views and values (a run's kind and state are
     * values).
     */
    @Test
    void onlyStoresTouchEntities() {
        noClasses().that(DescribedPredicate.not(STORE)).should().dependOnClassesThat()
                .areAnnotatedWith(jakarta.persistence.Entity.class)
                .because("a class that is no store reads and writes through one").check(CLASSES);
    }

    /** A class marked {@link Store}, or nested in one. */
    static final DescribedPredicate<JavaClass> STORE = DescribedPredicate.describe("a store or nested in one",
            c -> {
                for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
                    if (k.isAnnotatedWith(Store.class)) {
                        return true;
                    }
                }
                return false;
            });

    @Test
    void noPackageCycles() {
        slices().matching(CORE + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void theCoreKnowsNoWebApiAndNoWebModule() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("jakarta.ws.rs..", "jakarta.websocket..",
                "jakarta.servlet..", "dev.switchboard.rest..", "dev.switchboard.ws..").check(CLASSES);
    }
}
