package dev.switchboard.core.execution;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.function.Supplier;

/**
 * The reads an execution makes on the lane's own threads outside any EJB method — what the
 * preparations read when a run is claimed, what an engine reads when it first asks (its history, a
 * client's call, its place in a delegation tree and the replies it got) — are made inside this
 * bean's method. On a thread of a {@code ManagedThreadFactory}, a connection taken outside an EJB
 * method belongs to the thread's local transaction, which ends only with the thread: each lane
 * worker kept one of the pool's connections for good once it had read (seen with a pool of 15:
 * every connection idle in a worker since its last delegation read, every request answered 503).
 * An EJB method's local transaction ends when it returns, and its connection goes back to the pool.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class ScopedReads {

    /** {@code read}, its connection back in the pool when it returns (in the caller's transaction when there is one). */
    public <T> T read(Supplier<T> read) {
        return read.get();
    }
}
