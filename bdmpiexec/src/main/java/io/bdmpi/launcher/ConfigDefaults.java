package io.bdmpi.launcher;

import io.bdmpi.master.config.NodeSettings;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Puts a {@link ConfigFile} between the command line and the built-in defaults: picocli asks it for
 * the value of every option the command line leaves out (precedence: command line &gt; file &gt;
 * defaults). It also remembers where each value came from, so that a check failing on a value
 * from the file names the file, line and key.
 */
final class ConfigDefaults implements CommandLine.IDefaultValueProvider {

    private final ConfigFile config;
    /** Option name (e.g. "-ns") to where its value stands in the file, for options the file set. */
    private final Map<String, String> sources = new LinkedHashMap<>();

    ConfigDefaults(ConfigFile config) {
        this.config = config;
    }

    /** The file's key for an option: its long name without dashes. */
    static String key(OptionSpec option) {
        return option.longestName().replaceFirst("^-+", "");
    }

    /** The keys a config file may use for the options of {@code spec}. */
    static Set<String> optionKeys(CommandLine.Model.CommandSpec spec) {
        Set<String> keys = new LinkedHashSet<>();
        for (OptionSpec o : spec.options()) {
            if (!o.usageHelp() && !o.versionHelp() && !o.longestName().equals(LaunchOptions.CONFIG_OPTION)) {
                keys.add(key(o));
            }
        }
        return keys;
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        ConfigFile.Entry e = config.get(key(option));
        return e == null ? null : e.value();
    }

    /**
     * After parsing: records which options took their value from the file, takes the program from
     * the file if the command line names none, and applies node 0's per-node settings.
     */
    void apply(LaunchOptions options, CommandLine.ParseResult parsed) throws LaunchOptions.UsageException {
        for (OptionSpec o : parsed.commandSpec().options()) {
            ConfigFile.Entry e = config.get(key(o));
            if (e != null && !parsed.hasMatchedOption(o)) {
                for (String name : o.names()) {
                    sources.put(name, e.where(config.file));
                }
            }
        }
        if (options.program.isEmpty() && config.get(ConfigFile.PROGRAM) != null) {
            options.program = new ArrayList<>();
            options.program.add(config.get(ConfigFile.PROGRAM).value());
            options.program.addAll(config.args);
        }
        // The command line beats the per-node entries too: what it set, no node overrides.
        boolean slaves = parsed.hasMatchedOption("-ns");
        boolean running = parsed.hasMatchedOption("-nr");
        boolean limit = parsed.hasMatchedOption("--memory-limit");
        boolean workDir = parsed.hasMatchedOption("-wd");
        options.nodeSettings = config.nodes.stream()
                .map(n -> new NodeSettings(n.node(), slaves ? null : n.slaves(), running ? null : n.running(),
                        limit ? null : n.memoryLimitBytes(), workDir ? null : n.workDirParent()))
                .toList();
        if (!config.nodes.isEmpty() && config.nodes.size() != options.nodes) {
            throw new LaunchOptions.UsageException("config file " + config.file + ": " + ConfigFile.PER_NODE + " has "
                    + config.nodes.size() + " entries, but there are " + options.nodes + " nodes (-nn); give one per node");
        }
        if (!config.nodes.isEmpty()) {
            NodeSettings node0 = config.nodes.get(0);
            if (node0.slaves() != null && !parsed.hasMatchedOption("-ns")) {
                options.slaves = node0.slaves();
                sources.put("-ns", config.get(ConfigFile.PER_NODE + "[0].slaves").where(config.file));
            }
            if (node0.running() != null && !parsed.hasMatchedOption("-nr")) {
                options.running = node0.running();
                sources.put("-nr", config.get(ConfigFile.PER_NODE + "[0].running").where(config.file));
            }
            if (node0.workDirParent() != null && !parsed.hasMatchedOption("-wd")) {
                options.workDir = node0.workDirParent();
                sources.put("-wd", config.get(ConfigFile.PER_NODE + "[0].workdir").where(config.file));
            }
        }
    }

    /** The message of a value the file gave that picocli could not convert, with its place in the file. */
    String explain(CommandLine.ParameterException e, String[] args) {
        if (e.getArgSpec() instanceof OptionSpec o && config.get(key(o)) != null) {
            for (String arg : args) {
                for (String name : o.names()) {
                    if (arg.equals(name) || arg.startsWith(name + "=")) {
                        return e.getMessage();
                    }
                }
            }
            return e.getMessage() + " (set in " + config.get(key(o)).where(config.file) + ")";
        }
        return e.getMessage();
    }

    /** {@code message} with the places in the file of every option it names (as "-ns=") that the file set. */
    String explain(String message) {
        List<String> from = new ArrayList<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            if (message.contains(e.getKey() + "=") || message.contains("'" + e.getKey() + "'")) {
                if (!from.contains(e.getValue())) {
                    from.add(e.getValue());
                }
            }
        }
        return from.isEmpty() ? message : message + " (set in " + String.join("; ", from) + ")";
    }
}
