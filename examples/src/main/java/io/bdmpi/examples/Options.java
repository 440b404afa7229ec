package io.bdmpi.examples;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --name value} options of an example program. Every option must be among the known
 * names and appear once; a missing required option, an unknown one or an unparsable value is an
 * {@link IllegalArgumentException} whose message is fit for the user.
 */
public final class Options {

    private final Map<String, String> values = new LinkedHashMap<>();

    private Options() {
    }

    /** Parses {@code args[from..]} as {@code --name value} pairs, all of them in {@code known}. */
    public static Options parse(String[] args, int from, Set<String> known) {
        Options o = new Options();
        for (int i = from; i < args.length; i += 2) {
            String name = args[i];
            if (!name.startsWith("--") || !known.contains(name.substring(2))) {
                throw new IllegalArgumentException("unknown option " + name + "; options are --" + String.join(", --", known));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            if (o.values.put(name.substring(2), args[i + 1]) != null) {
                throw new IllegalArgumentException(name + " given twice");
            }
        }
        return o;
    }

    /** The value of {@code --name}, which must be there. */
    public String string(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    /** The value of {@code --name}, or {@code dflt}. */
    public String string(String name, String dflt) {
        return values.getOrDefault(name, dflt);
    }

    /** The path {@code --name}, which must be there. */
    public Path path(String name) {
        return Path.of(string(name));
    }

    /** The long {@code --name} (suffix k, m, g for powers of 1024 allowed), or {@code dflt}. */
    public long number(String name, long dflt) {
        String v = values.get(name);
        if (v == null) {
            return dflt;
        }
        String s = v.trim().toLowerCase();
        long unit = 1;
        if (s.endsWith("k") || s.endsWith("m") || s.endsWith("g")) {
            unit = s.endsWith("k") ? 1L << 10 : s.endsWith("m") ? 1L << 20 : 1L << 30;
            s = s.substring(0, s.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(s), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, not '" + v + "'");
        }
    }

    /** The long {@code --name}, which must be there. */
    public long number(String name) {
        string(name);
        return number(name, 0);
    }

    /** The int {@code --name} in [min, max], or {@code dflt}. */
    public int integer(String name, int dflt, int min, int max) {
        long v = number(name, dflt);
        if (v < min || v > max) {
            throw new IllegalArgumentException("--" + name + " must be between " + min + " and " + max + ", not " + v);
        }
        return (int) v;
    }

    /** The int {@code --name} in [min, max], which must be there. */
    public int integer(String name, int min, int max) {
        string(name);
        return integer(name, 0, min, max);
    }

    /** The double {@code --name}, or {@code dflt}. */
    public double real(String name, double dflt) {
        String v = values.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a number, not '" + v + "'");
        }
    }
}
