package dev.switchboard.rest.chat;

import dev.switchboard.core.chat.ChatMessage;
import dev.switchboard.core.chat.ChatRejectedException;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** The chat gateway's refusals ({@link ChatResource}) in the error envelope. */
public final class ChatErrorMappers {

    private ChatErrorMappers() {
    }

    /** A message or command the thread's state does not allow: a status and code per reason. */
    @Provider
    public static class Rejected implements ExceptionMapper<ChatRejectedException> {
        @Override
        public Response toResponse(ChatRejectedException e) {
            return ErrorBody.response(error(e));
        }

        static ApiException error(ChatRejectedException e) {
            String message = e.getMessage();
            return switch (e.reason()) {
                // Only a full queue is a matter of time: there is room again as the thread's turns end.
                case QUEUE_FULL -> new ApiException(429, "queue_full", message, 1);
                case NOT_FOUND -> new ApiException(404, "thread_not_found", message);
                case NOT_AUTHORIZED -> new ApiException(403, "approval_not_authorized", message);
                case MISMATCH -> new ApiException(409, "request_id_mismatch", message);
                case BUSY -> new ApiException(409, "thread_busy", message);
                case NO_PENDING_APPROVAL -> new ApiException(409, "no_pending_approval", message);
                case NO_PENDING_AUTH -> new ApiException(409, "no_pending_auth", message);
                case AUTH_EXPIRED -> new ApiException(409, "auth_expired", message);
                case INVALID_TOKEN -> new ApiException(400, "invalid_token", message);
                case CHECKPOINT_NOT_FOUND -> new ApiException(404, "checkpoint_not_found", message);
                case UNSUPPORTED -> new ApiException(400, "unsupported_command", message);
            };
        }
    }

    /** A body that is not a chat message, answer or token: {@code 400 invalid_chat_payload}, naming the member. */
    @Provider
    public static class InvalidPayload implements ExceptionMapper<ChatMessage.InvalidException> {
        @Override
        public Response toResponse(ChatMessage.InvalidException e) {
            return ErrorBody.response(ChatResource.invalid(e.getMessage()));
        }
    }
}
