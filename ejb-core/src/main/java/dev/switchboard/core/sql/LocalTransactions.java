package dev.switchboard.core.sql;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Transactions without the container, for the core built outside it (the in-process tests on
 * PostgreSQL, tools): {@link #inTransaction} runs a unit of work on one connection of the real data
 * source and commits it (or rolls it back when the work throws), and {@link #dataSource()} hands the
 * stores that connection — as the container's shared connection does — whatever they close. A
 * statement outside a transaction runs on a connection of its own, committed at once, as the
 * container's {@code SUPPORTS} methods do.
 */
public final class LocalTransactions {

    private final DataSource real;
    private final ThreadLocal<Connection> current = new ThreadLocal<>();
    private final DataSource shared = new SharedDataSource();

    public LocalTransactions(DataSource real) {
        this.real = real;
    }

    /** The data source the stores take: inside a transaction, its connection. */
    public DataSource dataSource() {
        return shared;
    }

    /** Runs {@code work} in a transaction of its own on this thread (never nested), and commits it. */
    public <T> T inTransaction(Supplier<T> work) {
        if (current.get() != null) {
            throw new IllegalStateException("a transaction is already open on this thread");
        }
        try (Connection c = real.getConnection()) {
            c.setAutoCommit(false);
            current.set(c);
            try {
                T result = work.get();
                c.commit();
                return result;
            } catch (RuntimeException | Error e) {
                c.rollback();
                throw e;
            } finally {
                current.remove();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the transaction failed", e);
        }
    }

    /** As {@link #inTransaction(Supplier)} for work that answers nothing. */
    public void run(Runnable work) {
        inTransaction(() -> {
            work.run();
            return null;
        });
    }

    /** The transaction's connection, whose {@code close} leaves it open for the transaction's next statement. */
    private Connection borrowed(Connection c) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(c, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private final class SharedDataSource implements DataSource {

        @Override
        public Connection getConnection() throws SQLException {
            Connection c = current.get();
            return c == null ? real.getConnection() : borrowed(c);
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            throw new SQLFeatureNotSupportedException("the transaction's connection has its own credentials");
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return real.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            real.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            real.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return real.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return real.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return real.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return iface.isInstance(real);
        }
    }
}
