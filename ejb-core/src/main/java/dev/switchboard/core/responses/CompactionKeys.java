package dev.switchboard.core.responses;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.sql.Statements;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The key that seals compactions, the same on every instance: the configured one
 * ({@code SWITCHBOARD_RESPONSES_COMPACTION_KEY}, 32 bytes in base64), else one the first instance
 * to need it makes and stores in {@code server_keys}. Read once per instance. An EJB so that its
 * statements hold a connection only while they run.
 */
@Singleton
@Lock(LockType.READ)
public class CompactionKeys {

    private static final String NAME = "responses.compaction";
    // Portable (PostgreSQL and the embedded H2): insert unless present; a concurrent twin fails on the key.
    private static final String CREATE = "INSERT INTO server_keys (name, secret, created_at) SELECT ?, ?, ?"
            + " WHERE NOT EXISTS (SELECT 1 FROM server_keys WHERE name = ?)";
    private static final String READ = "SELECT secret FROM server_keys WHERE name = ?";

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    InstanceClock clock;

    @Inject
    @ConfigProperty(name = "switchboard.responses.compaction-key")
    Optional<String> configured;

    private volatile CompactionSeal seal;

    @PostConstruct
    void validate() {
        configured.ifPresent(CompactionKeys::key);
    }

    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED) // each statement on its own: a failed insert spoils no read
    public CompactionSeal seal() {
        CompactionSeal current = seal;
        if (current == null) {
            synchronized (this) {
                if (seal == null) {
                    seal = new CompactionSeal(key(configured.orElseGet(this::stored)));
                }
                current = seal;
            }
        }
        return current;
    }

    private String stored() {
        Statements statements = new Statements(dataSource);
        byte[] fresh = new byte[32];
        new SecureRandom().nextBytes(fresh);
        try {
            statements.update(CREATE, s -> {
                s.setString(1, NAME);
                s.setString(2, Base64.getEncoder().encodeToString(fresh));
                s.setLong(3, clock.millis());
                s.setString(4, NAME);
            }, "making the compaction key");
        } catch (IllegalStateException madeByAnotherInstanceMeanwhile) {
            // the read below finds theirs; if it finds none, the failure was real and the read says so
        }
        return statements.query(READ, s -> s.setString(1, NAME), rs -> rs.getString(1), "reading the compaction key")
                .stream().findFirst().orElseThrow(() -> new IllegalStateException("the compaction key could not be made"));
    }

    static SecretKey key(String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            bytes = new byte[0];
        }
        if (bytes.length != 32) {
            throw new IllegalArgumentException("switchboard.responses.compaction-key must be 32 bytes in base64");
        }
        return new SecretKeySpec(bytes, "AES");
    }
}
