package dev.switchboard.ws.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket edge: uses the core's services — never its stores, nor the persistence module's
 * entities — and never the REST module or JAX-RS.
 */
class WebSocketDirectionTest {

    private static final String WS = "dev.switchboard.ws..";

    /** The core is imported too: whether a class it reaches is a store is read from the class. */
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.switchboard.ws", "dev.switchboard.core");

    /** How the core names the beans that read and write its tables (as in web-rest's RestDirectionTest). */
    private static final List<String> STORE_NAMES = List.of("Ledger", "Records", "Rows", "Repository", "Items",
            "Queries", "Workspaces", "Texts", "Contexts", "Keys", "Outcomes", "Reads", "Claims", "Journal");
    private static final List<String> BEANS = List.of("jakarta.ejb.Stateless", "jakarta.ejb.Singleton",
            "jakarta.enterprise.context.ApplicationScoped");

    /** A store, or a type nested in one; only beans, as a plain class named alike keeps no table. */
    private static final DescribedPredicate<JavaClass> CORE_STORES = DescribedPredicate.describe(
            "are core beans named ..." + String.join(", ...", STORE_NAMES) + " (stores), or nested in one",
            c -> isStore(outermost(c)));

    @Test
    void theWebSocketEdgeReachesTheCoreThroughItsServicesOnly() {
        noClasses().that().resideInAPackage(WS).should().dependOnClassesThat(CORE_STORES)
                .orShould().dependOnClassesThat().resideInAPackage("dev.switchboard.persistence..")
                .check(CLASSES);
    }

    @Test
    void theWebSocketEdgeKnowsNoRestModuleOrJaxRs() {
        noClasses().that().resideInAPackage(WS).should().dependOnClassesThat()
                .resideInAnyPackage("dev.switchboard.rest..", "jakarta.ws.rs..").check(CLASSES);
    }

    private static JavaClass outermost(JavaClass c) {
        return c.getEnclosingClass().map(WebSocketDirectionTest::outermost).orElse(c);
    }

    private static boolean isStore(JavaClass c) {
        return c.getPackageName().startsWith("dev.switchboard.core.")
                && STORE_NAMES.stream().anyMatch(c.getSimpleName()::endsWith)
                && BEANS.stream().anyMatch(c::isAnnotatedWith);
    }
}
