package dev.switchboard.ws.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The WebSocket edge: uses the core's services, never the REST module or JAX-RS. */
class WebSocketDirectionTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.switchboard.ws");

    @Test
    void theWebSocketEdgeKnowsNoRestModuleOrJaxRs() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.switchboard.rest..", "jakarta.ws.rs..")
                .check(CLASSES);
    }
}
