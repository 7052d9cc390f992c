package dev.switchboard.core.responses;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code GET /v1/responses/{id}/input_items} (OpenAI's list, which the official SDKs page through
 * with {@code inputItems.list}): the items used to make a response — the conversation it continued,
 * then its own input — each with an {@code id} (an item sent without one is named after the response
 * and its place, so the name is the same on every read), in a page of {@code limit} (1–100, 20) in
 * {@code order} ({@code desc}, newest first, unless {@code asc}) after or before an item's id.
 */
public final class InputItems {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    private InputItems() {
    }

    /** The query, as given (nulls for what is absent). */
    public record Query(String after, String before, String limit, String order) {
    }

    /** The items of a response, in conversation order, each with its id. */
    public static List<JsonObject> of(String responseId, List<JsonObject> prior, List<JsonObject> input) {
        List<JsonObject> items = new ArrayList<>();
        String stem = "item_" + responseId.substring(responseId.indexOf('_') + 1) + "_";
        for (JsonObject item : concat(prior, input)) {
            if (item.get("id") instanceof JsonString) {
                items.add(item);
                continue;
            }
            JsonObjectBuilder named = Jsons.createObjectBuilder().add("id", stem + items.size());
            item.forEach((key, value) -> {
                if (!"id".equals(key)) {
                    named.add(key, value);
                }
            });
            items.add(named.build());
        }
        return items;
    }

    /**
     * The page {@code query} asks for: {@code {"object":"list","data",first_id,last_id,has_more}}.
     *
     * @throws ResponseError 400 for a limit or order out of range, or a cursor that names no item
     */
    public static JsonObject page(List<JsonObject> items, Query query) {
        int limit = limit(query.limit());
        boolean ascending;
        if (query.order() == null || "desc".equals(query.order())) {
            ascending = false;
        } else if ("asc".equals(query.order())) {
            ascending = true;
        } else {
            throw ResponseError.invalid("order", "order must be asc or desc");
        }
        List<JsonObject> ordered = new ArrayList<>(items);
        if (!ascending) {
            Collections.reverse(ordered);
        }
        int from = 0;
        int to = ordered.size();
        if (query.after() != null) {
            from = indexOf(ordered, query.after(), "after") + 1;
        }
        if (query.before() != null) {
            to = indexOf(ordered, query.before(), "before");
        }
        List<JsonObject> data = from >= to ? List.of() : ordered.subList(from, Math.min(to, from + limit));
        JsonArrayBuilder array = Jsons.createArrayBuilder();
        data.forEach(array::add);
        JsonObjectBuilder page = Jsons.createObjectBuilder().add("object", "list").add("data", array);
        if (data.isEmpty()) {
            page.addNull("first_id").addNull("last_id");
        } else {
            page.add("first_id", data.get(0).getString("id")).add("last_id", data.get(data.size() - 1).getString("id"));
        }
        return page.add("has_more", from + data.size() < to).build();
    }

    private static int limit(String limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int n = Integer.parseInt(limit.strip());
            if (n >= 1 && n <= MAX_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw ResponseError.invalid("limit", "limit must be a whole number from 1 to " + MAX_LIMIT);
    }

    private static int indexOf(List<JsonObject> items, String id, String param) {
        for (int i = 0; i < items.size(); i++) {
            if (id.equals(items.get(i).getString("id"))) {
                return i;
            }
        }
        throw ResponseError.invalid(param, param + " names no input item of this response: " + id);
    }

    private static List<JsonObject> concat(List<JsonObject> a, List<JsonObject> b) {
        List<JsonObject> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
