package dev.switchboard.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every {@code example} of the OpenAPI document is a valid instance of the schema it illustrates
 * — a media type's example of that media type's schema, a parameter's of the parameter's, a
 * schema's own example of the schema — so the examples readers copy are true to the contract.
 * Schemas are checked as JSON Schema (draft 4, which OpenAPI 3.0's schemas extend) inside the
 * whole document, so {@code $ref}s resolve; OpenAPI's {@code nullable: true} becomes a type that
 * also admits {@code null}.
 */
class OpenApiExamplesTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);

    /** One example and where it is. */
    record Example(String where, JsonNode value, JsonNode schema) {
    }

    @Test
    void everyExampleIsAnInstanceOfItsSchema() throws IOException {
        JsonNode document = asJsonSchema(read());
        List<Example> examples = new ArrayList<>();
        collect(document, "", examples);
        assertTrue(examples.size() >= 18, "examples found: " + examples.size());
        List<String> wrong = new ArrayList<>();
        for (Example example : examples) {
            Set<ValidationMessage> problems = validator(document, example.schema()).validate(example.value());
            problems.forEach(p -> wrong.add(example.where() + ": " + p.getMessage()));
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void aWrongExampleIsCaught() throws IOException {
        JsonNode document = asJsonSchema(read());
        JsonNode envelope = YAML.readTree("{$ref: '#/components/schemas/Error'}");
        assertTrue(validator(document, envelope).validate(YAML.readTree("{error: {code: 42}}")).size() > 0,
                "an error envelope whose code is a number and which lacks its message");
        assertEquals(Set.of(), validator(document, envelope).validate(YAML.readTree("{error: {code: x, message: y}}")));
    }

    private static JsonNode read() throws IOException {
        try (InputStream in = OpenApiExamplesTest.class.getClassLoader().getResourceAsStream(OpenApiDocumentTest.DOCUMENT)) {
            return YAML.readTree(in);
        }
    }

    /** A schema to check one example with: {@code schema} at the root of the whole document, so its references resolve. */
    private static JsonSchema validator(JsonNode document, JsonNode schema) {
        ObjectNode root = ((ObjectNode) document).deepCopy();
        root.remove("paths");
        root.setAll((ObjectNode) schema.deepCopy());
        return SCHEMAS.getSchema(root);
    }

    /** Finds every example below {@code node}, with the schema it belongs to. */
    private static void collect(JsonNode node, String where, List<Example> into) {
        if (node.isObject()) {
            if (node.has("example")) {
                if (node.has("schema")) {
                    into.add(new Example(where, node.get("example"), node.get("schema")));
                } else if (node.has("type") || node.has("properties") || node.has("$ref") || node.has("allOf")) {
                    ObjectNode itself = ((ObjectNode) node).deepCopy();
                    itself.remove("example");
                    into.add(new Example(where, node.get("example"), itself));
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getKey().equals("example")) {
                    collect(field.getValue(), where + "/" + field.getKey(), into);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(node.get(i), where + "/" + i, into);
            }
        }
    }

    /** OpenAPI 3.0's {@code nullable: true} beside a {@code type} is JSON Schema's type array with {@code null}. */
    private static JsonNode asJsonSchema(JsonNode node) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            if (object.path("nullable").asBoolean(false) && object.get("type") != null && object.get("type").isTextual()) {
                ArrayNode types = object.arrayNode().add(object.get("type").asText()).add("null");
                object.set("type", types);
            }
            object.remove("nullable");
            object.fields().forEachRemaining(field -> {
                if (!field.getKey().equals("example")) {
                    asJsonSchema(field.getValue());
                }
            });
        } else if (node.isArray()) {
            node.forEach(OpenApiExamplesTest::asJsonSchema);
        }
        return node;
    }
}
