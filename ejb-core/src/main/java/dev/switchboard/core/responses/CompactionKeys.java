package dev.switchboard.core.responses;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.crypto.SecretKey;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * This instance's compaction keys, never in the database: the configured ones
 * ({@code SWITCHBOARD_RESPONSES_COMPACTION_KEY}, newest first), which every instance of a deployment
 * must be given alike, followed by those of the key file if there is one; else the key file's
 * ({@code SWITCHBOARD_RESPONSES_COMPACTION_KEY_FILE}, made when there is none). The key that earlier
 * versions kept in {@code server_keys} is moved into the key file, to open what it sealed, and
 * deleted from the database. Read once per instance, at its start. An EJB so that its statements
 * hold a connection only while they run.
 */
@Singleton
@Startup
@DependsOn("SchemaBootstrap")
@Lock(LockType.READ)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED) // the delete commits at once, whatever becomes of a caller's transaction
@Store("server_keys")
public class CompactionKeys {

    private static final Logger LOG = Logger.getLogger(CompactionKeys.class.getName());
    /** The row in which earlier versions kept the key (V13), for anyone who reads the database to see. */
    private static final String IN_THE_DATABASE = "responses.compaction";
    private static final String READ = "SELECT secret FROM server_keys WHERE name = ?";
    private static final String DELETE = "DELETE FROM server_keys WHERE name = ? AND secret = ?";

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    @ConfigProperty(name = CompactionKeyRing.PROPERTY)
    Optional<String> configured;

    @Inject
    @ConfigProperty(name = "switchboard.responses.compaction-key-file")
    String keyFile;

    private volatile CompactionKeyRing ring;

    /**
     * A bad configured list stops the application. The keys are read now, so that the database's
     * key leaves it when an upgraded instance starts; if that fails, the first use tries again.
     */
    @PostConstruct
    void start() {
        configured.ifPresent(CompactionKeyRing::configured);
        try {
            ring();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The compaction keys could not be read at start; the first compaction will try again", e);
        }
    }

    public CompactionKeyRing ring() {
        CompactionKeyRing current = ring;
        if (current == null) {
            synchronized (this) {
                if (ring == null) {
                    ring = read();
                }
                current = ring;
            }
        }
        return current;
    }

    private CompactionKeyRing read() {
        CompactionKeyFile file = new CompactionKeyFile(Path.of(keyFile));
        Statements statements = new Statements(dataSource);
        statements.query(READ, s -> s.setString(1, IN_THE_DATABASE), rs -> rs.getString(1), "reading the compaction key")
                .stream().findFirst().ifPresent(secret -> moveOutOfTheDatabase(statements, secret, file));
        if (configured.isEmpty()) {
            return file.ringMadeIfAbsent();
        }
        CompactionKeyRing given = CompactionKeyRing.configured(configured.get());
        return file.ring().map(given::alsoOpening).orElse(given);
    }

    /**
     * The database's key goes into the key file (read by the next start too) as one that only
     * opens: anyone who could read the database could seal with it. Deleted once the file holds
     * it; an instance doing the same at once writes it too (or finds it in a file they share) and
     * deletes nothing.
     */
    private static void moveOutOfTheDatabase(Statements statements, String secret, CompactionKeyFile file) {
        SecretKey exposed = CompactionKeyRing.key(secret, "the compaction key in table server_keys");
        file.keepOpening(exposed);
        statements.update(DELETE, s -> {
            s.setString(1, IN_THE_DATABASE);
            s.setString(2, secret);
        }, "deleting the compaction key from the database");
        LOG.info(() -> "The compaction key kept in the database (server_keys) was moved to " + file.path()
                + ": it opens the compactions sealed before; new ones are sealed with another key");
    }
}
