package dev.switchboard.core.ingress;

import jakarta.json.JsonObject;
import java.util.List;

/** One page of ingress records, each in its record shape; {@code next} is null on the last page. */
public record RecordPage(List<JsonObject> records, RecordQuery.Cursor next) {
}
