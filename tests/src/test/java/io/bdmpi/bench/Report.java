package io.bdmpi.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One benchmark's figures: a table plus notes. {@link #publish} prints it as markdown on stdout
 * and writes {@code target/benchmarks/NAME.md} and {@code NAME.json} (the markdown file too,
 * because a build log may not keep test output).
 */
final class Report {

    /** A column: {@code key} names it in the JSON, {@code label} heads it in the markdown table. */
    record Column(String key, String label) {
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String name;
    private final String title;
    private final List<Column> columns;
    private final List<List<Object>> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    private Report(String name, String title, List<Column> columns) {
        this.name = name;
        this.title = title;
        this.columns = columns;
    }

    /** An empty report; {@code name} names its files. */
    static Report of(String name, String title, Column... columns) {
        return new Report(name, title, List.of(columns));
    }

    static Column column(String key, String label) {
        return new Column(key, label);
    }

    /** Adds a row: one value per column (numbers and booleans keep their type in the JSON; null prints as "-"). */
    Report row(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException(values.length + " values for " + columns.size() + " columns");
        }
        rows.add(Arrays.asList(values));
        return this;
    }

    /** Adds a line printed under the table: how the figures were made, targets, caveats. */
    Report note(String text) {
        notes.add(text);
        return this;
    }

    /** Prints the markdown and writes both files. */
    void publish() {
        System.out.println();
        System.out.println(markdown());
        System.out.flush();
        save();
    }

    /** Writes both files with the rows so far, without printing: a long benchmark keeps what it measured should it stop. */
    void save() {
        String markdown = markdown();
        Path dir = outputDirectory();
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".md"), markdown, StandardCharsets.UTF_8);
            JSON.writeValue(dir.resolve(name + ".json").toFile(), json());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the " + name + " report to " + dir, e);
        }
    }

    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("### ").append(title).append("\n\n");
        sb.append(columns.stream().map(Column::label).collect(Collectors.joining(" | ", "| ", " |\n")));
        sb.append(columns.stream().map(c -> "---").collect(Collectors.joining(" | ", "| ", " |\n")));
        for (List<Object> row : rows) {
            sb.append(row.stream().map(Report::format).collect(Collectors.joining(" | ", "| ", " |\n")));
        }
        sb.append('\n');
        notes.forEach(n -> sb.append("- ").append(n).append('\n'));
        return sb.toString();
    }

    private Map<String, Object> json() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("benchmark", name);
        doc.put("title", title);
        doc.put("quick", BenchConfig.quick());
        doc.put("cores", Runtime.getRuntime().availableProcessors());
        doc.put("javaVersion", System.getProperty("java.version"));
        List<Map<String, Object>> jsonRows = new ArrayList<>();
        for (List<Object> row : rows) {
            Map<String, Object> r = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                r.put(columns.get(i).key(), row.get(i));
            }
            jsonRows.add(r);
        }
        doc.put("rows", jsonRows);
        doc.put("notes", notes);
        return doc;
    }

    /** Doubles to three significant figures or so: enough for noisy measurements, short enough to read. */
    static String format(Object value) {
        if (value == null) {
            return "-";
        }
        if (value instanceof Boolean b) {
            return b ? "yes" : "no";
        }
        if (value instanceof Double d) {
            double a = Math.abs(d);
            String pattern = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f";
            return String.format(Locale.ROOT, pattern, d);
        }
        return value.toString();
    }

    /** {@code target/benchmarks} of the tests module; surefire runs tests in the module's directory. */
    static Path outputDirectory() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "target", "benchmarks");
    }
}
