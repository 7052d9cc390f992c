package dev.switchboard.core.input;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonLocation;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Parses a client's JSON strictly: valid UTF-8, exactly one value (text after it is an error, not
 * ignored), at most {@value #MAX_DEPTH} levels of nesting and number literals of at most
 * {@value #MAX_NUMBER_LENGTH} characters with an exponent of at most {@value #MAX_EXPONENT_DIGITS}
 * digits. The bounds are checked by a scan before the parser runs, so no body can make the parser
 * recurse deeply or a later {@code intValue()} compute a number with a billion digits.
 */
public final class StrictJson {

    public static final int MAX_DEPTH = 64;
    public static final int MAX_NUMBER_LENGTH = 100;
    public static final int MAX_EXPONENT_DIGITS = 4;

    private static final JsonParserFactory PARSERS = Jsons.createParserFactory(Map.of());

    private StrictJson() {
    }

    /** The bytes as UTF-8 text; malformed or truncated sequences are an error, never replaced. */
    public static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidJsonException("the body is not valid UTF-8");
        }
    }

    public static JsonValue parse(byte[] bytes) {
        return parse(utf8(bytes));
    }

    /** One JSON value; {@link InvalidJsonException} when {@code text} is anything else. */
    public static JsonValue parse(String text) {
        checkBounds(text);
        try (JsonParser parser = PARSERS.createParser(new StringReader(text))) {
            if (!parser.hasNext()) {
                throw new InvalidJsonException("the body holds no JSON value");
            }
            parser.next();
            JsonValue value = parser.getValue();
            if (parser.hasNext()) {
                throw new InvalidJsonException("text after the JSON value");
            }
            return value;
        } catch (JsonParsingException e) {
            throw new InvalidJsonException(at(e.getLocation()));
        } catch (JsonException | IllegalStateException | NoSuchElementException | ArithmeticException
                | NumberFormatException | UnsupportedOperationException e) {
            throw new InvalidJsonException("not valid JSON");
        }
    }

    private static String at(JsonLocation location) {
        if (location == null || location.getLineNumber() < 0) {
            return "not valid JSON";
        }
        return "not valid JSON (line " + location.getLineNumber() + ", column " + location.getColumnNumber() + ")";
    }

    /** Nesting depth and number sizes, counted outside strings. */
    static void checkBounds(String text) {
        int depth = 0;
        boolean inString = false;
        int numberStart = -1;
        int exponentDigits = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            if (isNumberChar(c)) {
                if (numberStart < 0) {
                    numberStart = i;
                }
                if (c == 'e' || c == 'E') {
                    exponentDigits = 0;
                } else if (exponentDigits >= 0 && c >= '0' && c <= '9' && (exponentDigits > 0 || c != '0')
                        && ++exponentDigits > MAX_EXPONENT_DIGITS) {
                    throw new InvalidJsonException("a number's exponent has more than " + MAX_EXPONENT_DIGITS + " digits");
                }
                if (i - numberStart + 1 > MAX_NUMBER_LENGTH) {
                    throw new InvalidJsonException("a number is longer than " + MAX_NUMBER_LENGTH + " characters");
                }
                continue;
            }
            numberStart = -1;
            exponentDigits = -1;
            switch (c) {
                case '"' -> inString = true;
                case '{', '[' -> {
                    if (++depth > MAX_DEPTH) {
                        throw new InvalidJsonException("nested deeper than " + MAX_DEPTH + " levels");
                    }
                }
                case '}', ']' -> depth--;
                default -> {
                }
            }
        }
    }

    private static boolean isNumberChar(char c) {
        return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    }
}
