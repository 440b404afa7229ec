package io.bdmpi.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Copies one of mpiexec's output streams to bdmpiexec's own as it comes, hands each line to a
 * reader (which looks for the MPI library's casualties, see {@link MpiCasualties}), and keeps its
 * last lines, in which mpiexec reports the death of a master (see {@link NodeLoss}).
 */
final class OutputRelay implements Runnable {

    /** mpiexec's report of a death is a dozen lines at the end; program output before it is not kept. */
    private static final int KEPT_LINES = 64;

    private final InputStream in;
    private final PrintStream out;
    private final Consumer<String> lines;
    private final ArrayDeque<String> last = new ArrayDeque<>();
    private final Thread thread;

    private OutputRelay(InputStream in, PrintStream out, Consumer<String> lines, String name) {
        this.in = in;
        this.out = out;
        this.lines = lines;
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    /** Starts copying {@code in} to {@code out}, handing each whole line to {@code lines} too. */
    static OutputRelay start(InputStream in, PrintStream out, Consumer<String> lines, String name) {
        OutputRelay r = new OutputRelay(in, out, lines, name);
        r.thread.start();
        return r;
    }

    @Override
    public void run() {
        byte[] buffer = new byte[8192];
        StringBuilder line = new StringBuilder();
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
                out.flush();
                String text = new String(buffer, 0, n, StandardCharsets.UTF_8);
                for (int i = 0; i < text.length(); i++) {
                    char c = text.charAt(i);
                    if (c == '\n') {
                        keep(line.toString());
                        line.setLength(0);
                    } else if (line.length() < 4096) {
                        line.append(c);
                    }
                }
            }
        } catch (IOException e) {
            // mpiexec is gone.
        }
        if (line.length() > 0) {
            keep(line.toString());
        }
    }

    private void keep(String line) {
        lines.accept(line);
        synchronized (this) {
            if (last.size() == KEPT_LINES) {
                last.removeFirst();
            }
            last.addLast(line);
        }
    }

    /** Waits until the stream has ended (mpiexec has exited), then returns its last lines. */
    List<String> lastLines() throws InterruptedException {
        thread.join(5_000);
        synchronized (this) {
            return new ArrayList<>(last);
        }
    }
}
