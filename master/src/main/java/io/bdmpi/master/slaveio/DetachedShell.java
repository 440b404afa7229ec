package io.bdmpi.master.slaveio;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A small {@code /bin/sh} script in a session of its own ({@code setsid}), with no terminal input
 * or output: what cleans up after a process that may die without cleaning up itself (SIGKILL, the
 * OOM killer), since a signal to that process's group or a closed terminal does not reach it.
 */
public final class DetachedShell {

    private DetachedShell() {
    }

    /**
     * Starts {@code script}; {@code args} are its {@code $0}, {@code $1}, ...
     *
     * @return the shell's process, for ending it once it is no longer needed
     */
    public static Process start(String script, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("setsid", "/bin/sh", "-c", script));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }
}
