package dev.switchboard.persistence.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The innermost module: entities and migrations, knowing no container service and no other module. */
class PersistenceDirectionTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.switchboard.persistence");

    @Test
    void persistenceKnowsNoEjbWebOrExecutorApiAndNoOtherModule() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("jakarta.ejb..", "jakarta.ws.rs..",
                "jakarta.websocket..", "jakarta.servlet..", "jakarta.enterprise.concurrent..",
                "dev.switchboard.core..", "dev.switchboard.rest..", "dev.switchboard.ws..").check(CLASSES);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.switchboard.persistence.(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
