package dev.switchboard.core.it;

import dev.switchboard.persistence.thread.ThreadRecord;
import dev.switchboard.testkit.EngineTrace;
import java.io.File;
import java.net.URISyntaxException;
import java.util.Arrays;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Client side: the micro-deployment of the Arquillian tests. A WAR standing in for the EAR, with
 * <ul>
 *   <li>{@code WEB-INF/lib/ejb-core.jar}: this module's main classes and beans.xml, as built — the
 *       whole lane layer including {@code SchemaBootstrap} and the {@code LaneController};</li>
 *   <li>{@code WEB-INF/lib/persistence.jar}: entities, persistence.xml and the Flyway scripts;</li>
 *   <li>Flyway, JGit and their dependencies (copied to {@code arq.libs.dir} by maven-dependency-plugin);</li>
 *   <li>{@code WEB-INF/classes}: this package (the tests and their in-container helpers) and the
 *       testkit's (the engine journal reader).</li>
 * </ul>
 */
final class ArqDeployment {

    private static final String BEANS_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <beans xmlns="https://jakarta.ee/xml/ns/jakartaee" version="4.0" bean-discovery-mode="annotated"/>
            """;

    private ArqDeployment() {
    }

    static WebArchive create() {
        ArqDatabase.prepare();
        File ejbClasses = new File(ArqDatabase.required("arq.ejb.classes"));
        requireExists(new File(ejbClasses, "dev/switchboard/core/lane/LaneLedger.class"));
        JavaArchive ejbCore = ShrinkWrap.create(ExplodedImporter.class, "ejb-core.jar")
                .importDirectory(ejbClasses)
                .as(JavaArchive.class);

        File[] flyway = new File(ArqDatabase.required("arq.libs.dir"))
                .listFiles((dir, name) -> name.endsWith(".jar"));
        if (flyway == null || Arrays.stream(flyway).noneMatch(f -> f.getName().startsWith("flyway-core"))) {
            throw new IllegalStateException("Flyway jars missing in " + System.getProperty("arq.libs.dir")
                    + "; they are copied in the pre-integration-test phase (mvn verify)");
        }

        return ShrinkWrap.create(WebArchive.class, "switchboard-arq.war")
                .addAsLibrary(ejbCore)
                .addAsLibrary(persistenceModule())
                .addAsLibraries(flyway)
                .addPackage(ArqDeployment.class.getPackage())
                .addPackage(EngineTrace.class.getPackage())
                .addAsWebInfResource(new StringAsset(BEANS_XML), "beans.xml");
    }

    /** The persistence module as on the test class path: its target/classes in a reactor build, else its jar. */
    private static JavaArchive persistenceModule() {
        File location;
        try {
            location = new File(ThreadRecord.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        requireExists(location);
        if (location.isDirectory()) {
            return ShrinkWrap.create(ExplodedImporter.class, "persistence.jar")
                    .importDirectory(location)
                    .as(JavaArchive.class);
        }
        return ShrinkWrap.createFromZipFile(JavaArchive.class, location);
    }

    private static void requireExists(File file) {
        if (!file.exists()) {
            throw new IllegalStateException(file + " does not exist; build the modules first (mvn install -DskipTests)");
        }
    }
}
