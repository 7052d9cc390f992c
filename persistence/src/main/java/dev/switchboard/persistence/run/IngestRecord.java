package dev.switchboard.persistence.run;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/** Idempotency record: (user, source, key) identifies one run forever. */
@Entity
@Table(name = "message_ingest")
public class IngestRecord {

    /** Deletes the records of sources starting with {@code :sourcePrefix} (a LIKE pattern) created before {@code :before}. */

    @Embeddable
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;

        @Column(name = "user_key")
        private String userKey;
        @Column(name = "source")
        private String source;
        @Column(name = "idempotency_key")
        private String idempotencyKey;

        protected Key() {
        }

        public Key(String userKey, String source, String idempotencyKey) {
            this.userKey = userKey;
            this.source = source;
            this.idempotencyKey = idempotencyKey;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && userKey.equals(k.userKey) && source.equals(k.source)
                    && idempotencyKey.equals(k.idempotencyKey);
        }

        @Override
        public int hashCode() {
            return Objects.hash(userKey, source, idempotencyKey);
        }
    }

    @EmbeddedId
    private Key key;

    @Column(name = "run_id", nullable = false, updatable = false)
    private String runId;

    @Column(name = "payload_hash", nullable = false, updatable = false)
    private String payloadHash;

    @Column(name = "created_at", nullable = false, updatable = false)
    private long createdAt;

    protected IngestRecord() {
    }

    public IngestRecord(Key key, String runId, String payloadHash, long createdAt) {
        this.key = key;
        this.runId = runId;
        this.payloadHash = payloadHash;
        this.createdAt = createdAt;
    }

    public String getRunId() {
        return runId;
    }

    public String getPayloadHash() {
        return payloadHash;
    }
}
