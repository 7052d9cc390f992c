package dev.switchboard.rest.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The HTTP edge: uses the core's services, never the WebSocket module or the WebSocket API. */
class RestDirectionTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.switchboard.rest");

    @Test
    void restKnowsNoWebSocketModuleOrApi() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.switchboard.ws..", "jakarta.websocket..")
                .check(CLASSES);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.switchboard.rest.(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
