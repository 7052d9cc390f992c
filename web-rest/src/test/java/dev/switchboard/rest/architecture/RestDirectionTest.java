package dev.switchboard.rest.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HTTP edge: uses the core's services — never its stores, nor the persistence module's entities
 * — and never the WebSocket module; the WebSocket API only in {@code rest.responses}, whose
 * WebSocket transport the specification puts on the same path as its HTTP resource
 * ({@code /v1/responses}, in this module's context root).
 */
class RestDirectionTest {

    private static final String REST = "dev.switchboard.rest..";

    /** The core is imported too: whether a class it reaches is a store is read from the class. */
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.switchboard.rest", "dev.switchboard.core");

    /** How the core names the beans that read and write its tables. */
    private static final List<String> STORE_NAMES = List.of("Ledger", "Records", "Rows", "Repository", "Items",
            "Queries", "Workspaces", "Texts", "Contexts", "Keys", "Outcomes", "Reads", "Claims", "Journal");
    private static final List<String> BEANS = List.of("jakarta.ejb.Stateless", "jakarta.ejb.Singleton",
            "jakarta.enterprise.context.ApplicationScoped");

    /**
     * A store, or a type nested in one (a row it hands out is its business as well). Only beans: a
     * plain class named alike (a response's {@code InputItems}) keeps no table.
     */
    private static final DescribedPredicate<JavaClass> CORE_STORES = DescribedPredicate.describe(
            "are core beans named ..." + String.join(", ...", STORE_NAMES) + " (stores), or nested in one",
            c -> isStore(outermost(c)));

    @Test
    void restReachesTheCoreThroughItsServicesOnly() {
        noClasses().that().resideInAPackage(REST).should().dependOnClassesThat(CORE_STORES)
                .orShould().dependOnClassesThat().resideInAPackage("dev.switchboard.persistence..")
                .check(CLASSES);
    }

    @Test
    void restKnowsNoWebSocketModuleAndOnlyTheResponsesUseTheWebSocketApi() {
        noClasses().that().resideInAPackage(REST).should().dependOnClassesThat()
                .resideInAnyPackage("dev.switchboard.ws..").check(CLASSES);
        noClasses().that().resideInAPackage(REST).and().resideOutsideOfPackage("dev.switchboard.rest.responses")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.websocket..").check(CLASSES);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.switchboard.rest.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    private static JavaClass outermost(JavaClass c) {
        return c.getEnclosingClass().map(RestDirectionTest::outermost).orElse(c);
    }

    private static boolean isStore(JavaClass c) {
        return c.getPackageName().startsWith("dev.switchboard.core.")
                && STORE_NAMES.stream().anyMatch(c.getSimpleName()::endsWith)
                && BEANS.stream().anyMatch(c::isAnnotatedWith);
    }
}
