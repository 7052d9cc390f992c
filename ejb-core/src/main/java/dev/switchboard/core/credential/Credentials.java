package dev.switchboard.core.credential;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The users' credentials in {@code chat_credentials}, sealed ({@link CredentialSeal}). The key is
 * {@code switchboard.credentials.key} (base64 of 16, 24 or 32 bytes) — every instance of one
 * deployment must be given the same — or, when that is not set, a key this server makes once in
 * {@code switchboard.credentials.key-file} (owner-only permissions), which suits one instance.
 * Statements run in the caller's transaction.
 */
@Store("chat_credentials")
@ApplicationScoped
public class Credentials {

    private static final String READ = "SELECT sealed FROM chat_credentials WHERE user_key = ? AND name = ?";
    private static final String UPDATE = "UPDATE chat_credentials SET sealed = ?, updated_at = ? WHERE user_key = ? AND name = ?";
    private static final String INSERT = "INSERT INTO chat_credentials (user_key, name, sealed, updated_at) VALUES (?, ?, ?, ?)";
    private static final String DELETE = "DELETE FROM chat_credentials WHERE user_key = ? AND name = ?";

    @Inject
    Statements statements;

    @Inject
    @ConfigProperty(name = "switchboard.credentials.key", defaultValue = " ")
    String configuredKey;

    @Inject
    @ConfigProperty(name = "switchboard.credentials.key-file")
    String keyFile;

    private volatile CredentialSeal seal;

    /** The user's secret named {@code name}; empty when not given (or no longer opening with this key). */
    public Optional<String> get(String userKey, String name) {
        Optional<String> sealed = statements.query(READ, s -> {
            s.setString(1, userKey);
            s.setString(2, name);
        }, rs -> rs.getString(1), "reading a credential of " + userKey).stream().findFirst();
        if (sealed.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(seal().open(userKey, name, sealed.get()));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // sealed under another key: the user is asked again
        }
    }

    /** Stores (or replaces) the user's secret; the caller holds a lock that orders a user's writes. */
    public void put(String userKey, String name, String secret, long now) {
        String sealed = seal().seal(userKey, name, secret);
        int updated = statements.update(UPDATE, s -> {
            s.setString(1, sealed);
            s.setLong(2, now);
            s.setString(3, userKey);
            s.setString(4, name);
        }, "replacing a credential of " + userKey);
        if (updated == 0) {
            statements.updateOne(INSERT, s -> {
                s.setString(1, userKey);
                s.setString(2, name);
                s.setString(3, sealed);
                s.setLong(4, now);
            }, "storing a credential of " + userKey);
        }
    }

    /**
     * Seals a secret that is not a credential but must be stored for a while (a paused tool call's
     * arguments), under the same key, bound to the user and {@code purpose}.
     */
    public String seal(String userKey, String purpose, String secret) {
        return seal().seal(userKey, purpose, secret);
    }

    /** What {@link #seal(String, String, String)} sealed; empty when it does not open with this key for this user and purpose. */
    public Optional<String> open(String userKey, String purpose, String sealed) {
        try {
            return Optional.of(seal().open(userKey, purpose, sealed));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public boolean remove(String userKey, String name) {
        return statements.update(DELETE, s -> {
            s.setString(1, userKey);
            s.setString(2, name);
        }, "removing a credential of " + userKey) > 0;
    }

    private CredentialSeal seal() {
        CredentialSeal current = seal;
        if (current == null) {
            synchronized (this) {
                if (seal == null) {
                    seal = new CredentialSeal(key());
                }
                current = seal;
            }
        }
        return current;
    }

    private byte[] key() {
        if (!configuredKey.isBlank()) {
            try {
                return Base64.getDecoder().decode(configuredKey.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("switchboard.credentials.key is not base64");
            }
        }
        Path file = Path.of(keyFile).toAbsolutePath();
        try {
            if (!Files.exists(file)) { // a second instance racing on the same file keeps the first key
                SecretFiles.createOnce(file, Base64.getEncoder().encodeToString(CredentialSeal.newKey()));
            }
            return Base64.getDecoder().decode(Files.readString(file).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("the credential key file " + file + " could not be made or read", e);
        }
    }
}
