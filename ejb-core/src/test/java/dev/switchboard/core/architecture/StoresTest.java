package dev.switchboard.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * {@link Store} with the tables it works on, and the tables that more than one store still share
 * are listed here, so that the list can only shrink (issue 50: one store per table).
 */
class StoresTest {

    private static final String CORE = "dev.switchboard.core";

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);

    /** Beside the plumbing of {@code sql} and {@code schema}: the probes of the database's health and settings. */
    private static final Set<String> PLUMBING = Set.of(CORE + ".status.DatabaseProbe", CORE + ".lane.LaneLedger");

    /** Tables more than one store still reads or writes, with those stores: what one store per table removes. */
    private static final Map<String, Set<String>> STILL_SHARED = Map.ofEntries(
            Map.entry("runs", Set.of("LaneRows", "ThreadRepository", "TurnRows")));

    @Test
    void everyClassThatReachesTheDatabaseIsAStore() {
        noClasses().that(DescribedPredicate.not(PackageDirectionTest.STORE))
                .and().resideOutsideOfPackages(CORE + ".sql..", CORE + ".schema..")
                .and(DescribedPredicate.describe("not plumbing", c -> !PLUMBING.contains(c.getName())))
                .should().dependOnClassesThat().belongToAnyOf(Statements.class, MultiRowInsert.class, EntityManager.class,
                        DataSource.class, Connection.class)
                .because("a class that reads or writes rows is a store, marked with its tables").check(CLASSES);
    }

    @Test
    void noTableGainsAnotherStore() {
        Map<String, Set<String>> stores = new TreeMap<>();
        for (JavaClass c : CLASSES) {
            if (c.isAnnotatedWith(Store.class)) {
                for (String table : c.getAnnotationOfType(Store.class).value()) {
                    stores.computeIfAbsent(table, t -> new TreeSet<>()).add(c.getSimpleName());
                }
            }
        }
        stores.values().removeIf(owners -> owners.size() < 2);
        Map<String, Set<String>> expected = new TreeMap<>();
        STILL_SHARED.forEach((table, owners) -> expected.put(table, new TreeSet<>(owners)));
        assertEquals(expected, stores, "a table a store took from another comes off the list; none joins it");
    }
}
