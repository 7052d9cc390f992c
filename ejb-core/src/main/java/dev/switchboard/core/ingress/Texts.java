package dev.switchboard.core.ingress;

/** Small text rules the ingress spec repeats. */
final class Texts {

    private Texts() {
    }

    /** {@code value} without any of {@code chars} at either end. */
    static String trim(String value, String chars) {
        int start = 0;
        int end = value.length();
        while (start < end && chars.indexOf(value.charAt(start)) >= 0) {
            start++;
        }
        while (end > start && chars.indexOf(value.charAt(end - 1)) >= 0) {
            end--;
        }
        return value.substring(start, end);
    }
}
