package dev.switchboard.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.switchboard.core.sql.MultiRowInsert;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Which classes are stores is declared, not guessed from their names: a class that reaches the
 * database — statements, an entity manager, a data source or a connection — is marked
 * {@link Store} with the tables it works on, and no table is any other store's (issue 50: one store
 * per table; which SQL names which table outside its store, {@code LaneBoundaryTest} holds for the
 * lane's).
 */
class StoresTest {

    private static final String CORE = "dev.switchboard.core";

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);

    /** Beside the plumbing of {@code sql} and {@code schema}: the probes of the database's health and settings. */
    private static final Set<String> PLUMBING = Set.of(CORE + ".status.DatabaseProbe", CORE + ".lane.LaneLedger");

    @Test
    void everyClassThatReachesTheDatabaseIsAStore() {
        noClasses().that(DescribedPredicate.not(PackageDirectionTest.STORE))
                .and().resideOutsideOfPackages(CORE + ".sql..", CORE + ".schema..")
                .and(DescribedPredicate.describe("not plumbing", c -> !PLUMBING.contains(c.getName())))
                .should().dependOnClassesThat().belongToAnyOf(Statements.class, MultiRowInsert.class, EntityManager.class,
                        DataSource.class, Connection.class)
                .because("a class that reads or writes rows is a store, marked with its tables").check(CLASSES);
    }

    /** Writes go through {@code Statements} alone: the entities our users' design maps are read, never written. */
    @Test
    void noStoreWritesThroughTheEntityManager() {
        noClasses().should().callMethod(EntityManager.class, "persist", Object.class)
                .orShould().callMethod(EntityManager.class, "merge", Object.class)
                .orShould().callMethod(EntityManager.class, "remove", Object.class)
                .orShould().callMethod(EntityManager.class, "flush")
                .orShould().callMethod(jakarta.persistence.Query.class, "executeUpdate")
                .because("one style for writes: Statements").check(CLASSES);
    }

    @Test
    void everyTableHasOneStore() {
        Map<String, Set<String>> stores = new TreeMap<>();
        for (JavaClass c : CLASSES) {
            if (c.isAnnotatedWith(Store.class)) {
                for (String table : c.getAnnotationOfType(Store.class).value()) {
                    stores.computeIfAbsent(table, t -> new TreeSet<>()).add(c.getSimpleName());
                }
            }
        }
        assertFalse(stores.isEmpty(), "the stores are found");
        stores.values().removeIf(owners -> owners.size() < 2);
        assertEquals(Map.of(), stores, "a table is read and written by one store");
    }
}
