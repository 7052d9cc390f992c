/**
 * Open Responses served: {@code POST /responses} as durable runs. A request is validated and
 * normalised ({@link dev.switchboard.core.responses.ResponseRequest}), stored with the conversation
 * it continues ({@link dev.switchboard.core.history.ResponseRecords}) and run in its chain's thread
 * by the instance's engine ({@link dev.switchboard.core.responses.ResponseService}); the response
 * object, with every key the specification requires, is built from the record and the run
 * ({@link dev.switchboard.core.responses.ResponseObjects}).
 */
package dev.switchboard.core.responses;
