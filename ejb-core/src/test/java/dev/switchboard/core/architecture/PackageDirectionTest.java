package dev.switchboard.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
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
 * The lane is a generic durable queue (it tells listeners of run start and end through an
 * interface it owns); runs and turns are built on it; ingress hands events to runs; the chat
 * gateway applies the conversation rules with turns; the RPC methods sit on top.
 */
class PackageDirectionTest {

    private static final String CORE = "dev.switchboard.core";

    /** Top to bottom. */
    private static final List<List<String>> LEVELS = List.of(
            List.of("rpc", "status"),
            List.of("chat"),
            List.of("ingress", "responses", "conversation"),
            List.of("turn"),
            List.of("run", "runtime"),
            List.of("lane"),
            List.of("delegation"),
            List.of("lifecycle", "thread"),
            List.of("idempotency", "notify", "engine", "user", "schema", "history", "credential"),
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
