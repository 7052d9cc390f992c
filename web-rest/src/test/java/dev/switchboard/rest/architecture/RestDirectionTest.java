package dev.switchboard.rest.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The HTTP edge: uses the core's services, never the WebSocket module; the WebSocket API only in
 * {@code rest.responses}, whose WebSocket transport the specification puts on the same path as its
 * HTTP resource ({@code /v1/responses}, in this module's context root).
 */
class RestDirectionTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.switchboard.rest");

    @Test
    void restKnowsNoWebSocketModuleAndOnlyTheResponsesUseTheWebSocketApi() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.switchboard.ws..").check(CLASSES);
        noClasses().that().resideOutsideOfPackage("dev.switchboard.rest.responses").should().dependOnClassesThat()
                .resideInAnyPackage("jakarta.websocket..").check(CLASSES);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.switchboard.rest.(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
