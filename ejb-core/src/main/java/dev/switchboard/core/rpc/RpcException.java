package dev.switchboard.core.rpc;

/** A method's failure, answered as a JSON-RPC error. */
public class RpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient RpcError error;

    public RpcException(RpcError error) {
        super(error.message());
        this.error = error;
    }

    public RpcError error() {
        return error;
    }
}
