package io.bdmpi.launcher;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.bdmpi.master.config.NodeSettings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A {@code --config} file: YAML or JSON (by extension {@code .yaml/.yml/.json}, else by content),
 * one object whose keys are the long option names without their dashes ({@code slaves},
 * {@code inline-max}, {@code tag-output}, ...), plus {@code program}, {@code args} and the
 * {@code per-node} list. The launcher uses the file's values for options the command line does
 * not give. Unknown keys, wrong types and broken syntax are errors naming the file, line and key.
 */
final class ConfigFile {

    /** Key of the list of per-node settings. */
    static final String PER_NODE = "per-node";
    /** Key of the program (main class or jar). */
    static final String PROGRAM = "program";
    /** Key of the program's arguments (a list). */
    static final String ARGS = "args";

    /** A scalar value of the file and where it stands, for error messages. */
    record Entry(String key, String value, int line) {
        String where(Path file) {
            return file + " line " + line + ", key '" + key + "'";
        }
    }

    /** Keys of an element of the {@code per-node} list. */
    static final List<String> PER_NODE_KEYS = List.of("slaves", "running", "memory-limit", "workdir");

    final Path file;
    private final Map<String, Entry> entries;
    final List<String> args;
    final List<NodeSettings> nodes;

    private ConfigFile(Path file, Map<String, Entry> entries, List<String> args, List<NodeSettings> nodes) {
        this.file = file;
        this.entries = entries;
        this.args = args;
        this.nodes = nodes;
    }

    /** The file's value for {@code key} (an option's key, or e.g. "per-node[0].slaves"), or null. */
    Entry get(String key) {
        return entries.get(key);
    }

    /**
     * Reads and checks the file.
     *
     * @param optionKeys the keys the command line's options allow (long names without dashes)
     */
    static ConfigFile read(Path file, Set<String> optionKeys) throws LaunchOptions.UsageException {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new LaunchOptions.UsageException("--config=" + file + ": cannot read the file");
        }
        JsonFactory format = isYaml(file) ? new YAMLFactory() : new JsonFactory();
        Map<String, Entry> entries = new LinkedHashMap<>();
        List<String> args = List.of();
        List<NodeSettings> nodes = List.of();
        try (JsonParser p = format.createParser(file.toFile())) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return new ConfigFile(file, Map.of(), List.of(), List.of());
            }
            if (first != JsonToken.START_OBJECT) {
                throw error(file, p.currentTokenLocation(), null, "the file must hold one object of key: value pairs");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                int line = p.currentTokenLocation().getLineNr();
                JsonToken valueToken = p.nextToken();
                if (entries.containsKey(key) || (key.equals(ARGS) && !args.isEmpty())) {
                    throw error(file, line, key, "given twice");
                }
                if (key.equals(PER_NODE)) {
                    nodes = perNode(file, p, line, entries);
                } else if (key.equals(ARGS)) {
                    args = stringList(file, p, key, line);
                } else if (key.equals(PROGRAM) || optionKeys.contains(key)) {
                    if (valueToken == JsonToken.START_ARRAY && key.equals("slave-jvm-opts")) {
                        entries.put(key, new Entry(key, String.join(" ", stringList(file, p, key, line)), line));
                    } else if (valueToken.isScalarValue() && valueToken != JsonToken.VALUE_NULL) {
                        entries.put(key, new Entry(key, p.getText(), line));
                    } else {
                        throw error(file, line, key, "expected a single value, not " + describe(valueToken));
                    }
                } else {
                    throw error(file, line, key, "unknown key; known keys: " + known(optionKeys));
                }
            }
        } catch (JsonProcessingException e) {
            throw error(file, e.getLocation(), null, e.getOriginalMessage());
        } catch (IOException e) {
            throw new LaunchOptions.UsageException("--config=" + file + ": " + e.getMessage());
        }
        return new ConfigFile(file, entries, args, nodes);
    }

    private static List<NodeSettings> perNode(Path file, JsonParser p, int line, Map<String, Entry> entries) throws IOException, LaunchOptions.UsageException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw error(file, line, PER_NODE, "expected a list with one entry per node, not " + describe(p.currentToken()));
        }
        List<NodeSettings> nodes = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            String element = PER_NODE + "[" + nodes.size() + "]";
            if (p.currentToken() != JsonToken.START_OBJECT) {
                throw error(file, p.currentTokenLocation().getLineNr(), element, "expected an object, not " + describe(p.currentToken()));
            }
            Map<String, Entry> values = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                int at = p.currentTokenLocation().getLineNr();
                JsonToken t = p.nextToken();
                if (!PER_NODE_KEYS.contains(key)) {
                    throw error(file, at, element + "." + key, "unknown key; known keys: " + String.join(", ", PER_NODE_KEYS));
                }
                if (!t.isScalarValue() || t == JsonToken.VALUE_NULL || values.containsKey(key)) {
                    throw error(file, at, element + "." + key, values.containsKey(key) ? "given twice" : "expected a single value, not " + describe(t));
                }
                values.put(key, new Entry(element + "." + key, p.getText(), at));
                entries.put(element + "." + key, values.get(key));
            }
            nodes.add(new NodeSettings(nodes.size(), count(file, values.get("slaves")),
                    parsed(file, values.get("running"), LaunchOptions::parseRunning),
                    parsed(file, values.get("memory-limit"), LaunchOptions::parseBytes),
                    values.containsKey("workdir") ? Path.of(values.get("workdir").value()) : null));
        }
        return List.copyOf(nodes);
    }

    private static Integer count(Path file, Entry e) throws LaunchOptions.UsageException {
        if (e == null) {
            return null;
        }
        try {
            return Integer.valueOf(e.value().trim());
        } catch (NumberFormatException x) {
            throw error(file, e.line(), e.key(), "'" + e.value() + "' is not a whole number");
        }
    }

    /** A value parsed as the command line parses it (null if absent); its error names the file, line and key. */
    private static <T> T parsed(Path file, Entry e, Function<String, T> parser) throws LaunchOptions.UsageException {
        if (e == null) {
            return null;
        }
        try {
            return parser.apply(e.value());
        } catch (RuntimeException x) {
            throw error(file, e.line(), e.key(), x.getMessage());
        }
    }

    private static List<String> stringList(Path file, JsonParser p, String key, int line) throws IOException, LaunchOptions.UsageException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw error(file, line, key, "expected a list, not " + describe(p.currentToken()));
        }
        List<String> values = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (!t.isScalarValue() || t == JsonToken.VALUE_NULL) {
                throw error(file, p.currentTokenLocation().getLineNr(), key, "expected a list of single values, found " + describe(t));
            }
            values.add(p.getText());
        }
        return List.copyOf(values);
    }

    private static String describe(JsonToken t) {
        if (t == JsonToken.START_OBJECT) {
            return "an object";
        }
        if (t == JsonToken.START_ARRAY) {
            return "a list";
        }
        return t == JsonToken.VALUE_NULL ? "null" : String.valueOf(t);
    }

    private static String known(Set<String> optionKeys) {
        List<String> keys = new ArrayList<>(optionKeys);
        keys.add(PROGRAM);
        keys.add(ARGS);
        keys.add(PER_NODE);
        return String.join(", ", keys);
    }

    private static boolean isYaml(Path file) throws LaunchOptions.UsageException {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return true;
        }
        if (name.endsWith(".json")) {
            return false;
        }
        try {
            return !Files.readString(file, StandardCharsets.UTF_8).stripLeading().startsWith("{");
        } catch (IOException e) {
            throw new LaunchOptions.UsageException("--config=" + file + ": " + e.getMessage());
        }
    }

    private static LaunchOptions.UsageException error(Path file, JsonLocation at, String key, String message) {
        return error(file, at == null ? -1 : at.getLineNr(), key, message);
    }

    private static LaunchOptions.UsageException error(Path file, int line, String key, String message) {
        return new LaunchOptions.UsageException("config file " + file + (line > 0 ? " line " + line : "")
                + (key == null ? "" : ", key '" + key + "'") + ": " + message);
    }
}
