package io.bdmpi.master.observe;

import io.bdmpi.master.config.MasterContext;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Shows how a running job is doing, on stderr, in one of two ways:
 * <ul>
 *   <li><b>status line</b> (stderr is a terminal): one line, redrawn in place every
 *       {@value #STATUS_PERIOD_MS} ms. So that it never lands in the middle of a slave's line, the
 *       slaves' stdout and stderr then come through the master (two small threads per slave), and
 *       every forwarded line first erases the status line, which is redrawn at the next tick. A slave
 *       line without its newline yet keeps the status line hidden until the line is complete.</li>
 *   <li><b>periodic summary</b> ({@code --progress N}): one ordinary line every N seconds; slave output
 *       goes straight to the terminal or file as usual.</li>
 * </ul>
 * While the status line is shown, the master's own System.out and System.err go through the same
 * guard, so its messages also start on a clean line.
 *
 * <p>Single writer: this class never reads scheduler state. Each tick asks for a snapshot (a
 * SnapshotRequested event on the scheduler's ring); the scheduler thread answers with an immutable
 * {@link JobSnapshot}, which this thread formats.
 */
public final class ProgressReporter implements AutoCloseable {

    /** Refresh period of the live status line. */
    static final long STATUS_PERIOD_MS = 250;
    /** How long a tick waits for the scheduler's snapshot before skipping the tick. */
    private static final long SNAPSHOT_WAIT_MS = 1_000;
    /** How long closing waits for the last slave output to be forwarded. */
    private static final long DRAIN_WAIT_MS = 3_000;
    /** A partial line longer than this is forwarded without waiting for its newline. */
    private static final int MAX_HELD_LINE = 64 * 1024;
    private static final String ERASE_LINE = "\r\033[K";
    /** Where forwarded lines go when no one reads them: they are not decoded. */
    private static final Consumer<String> UNREAD = line -> { };

    private final Consumer<CompletableFuture<JobSnapshot>> askSnapshot;
    private final boolean statusLine;
    private final long periodMs;
    private final Terminal terminal;
    private final Thread ticker;
    private final List<Thread> forwarders = new ArrayList<>();
    private volatile boolean closed;

    private ProgressReporter(Consumer<CompletableFuture<JobSnapshot>> askSnapshot, boolean statusLine, long periodMs,
                             PrintStream out, PrintStream err) {
        this.askSnapshot = askSnapshot;
        this.statusLine = statusLine;
        this.periodMs = periodMs;
        this.terminal = new Terminal(out, err, statusLine ? statusWidth() : Integer.MAX_VALUE);
        this.ticker = new Thread(this::tick, "bdmpi-progress");
        this.ticker.setDaemon(true);
    }

    /**
     * The reporter the context asks for, started, or null for none.
     *
     * @param askSnapshot asks the scheduler thread (through its ring) to complete the future with a snapshot
     */
    public static ProgressReporter start(MasterContext context, Consumer<CompletableFuture<JobSnapshot>> askSnapshot) {
        ProgressReporter r;
        if (context.statusLine()) {
            r = new ProgressReporter(askSnapshot, true, STATUS_PERIOD_MS, System.out, System.err);
            r.terminal.guardSystemStreams();
        } else if (context.progressSeconds() > 0) {
            r = new ProgressReporter(askSnapshot, false, Math.max(1, (long) (context.progressSeconds() * 1000)), System.out, System.err);
        } else {
            return null;
        }
        r.ticker.start();
        return r;
    }

    /**
     * Whether stderr is a terminal, which decides the default progress display. Not
     * {@code System.console()}: that asks about stdin and stdout, but the status line goes to
     * stderr, and {@code bdmpiexec ... > out.txt} on a terminal should still show it.
     */
    public static boolean stderrIsTerminal() {
        if ("dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Slaves' output comes through the master in status-line mode: start copying it. */
    public void forwardOutputOf(Process slave) {
        forwardOutputOf(slave, UNREAD);
    }

    /** As {@link #forwardOutputOf(Process)}, handing each whole line forwarded to {@code lines} too. */
    public void forwardOutputOf(Process process, Consumer<String> lines) {
        if (statusLine) {
            forward(process.getInputStream(), terminal.out, lines, "bdmpi-stdout-" + process.pid());
            forward(process.getErrorStream(), terminal.err, lines, "bdmpi-stderr-" + process.pid());
        }
    }

    private void forward(InputStream in, PrintStream target, Consumer<String> lines, String name) {
        Thread t = new Thread(() -> copyLines(in, target, lines), name);
        t.setDaemon(true);
        forwarders.add(t);
        t.start();
    }

    private void copyLines(InputStream in, PrintStream target, Consumer<String> lines) {
        byte[] buf = new byte[8192];
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                held.write(buf, 0, n);
                byte[] bytes = held.toByteArray();
                int end = lastNewline(bytes) + 1;
                if (bytes.length > MAX_HELD_LINE) {
                    end = bytes.length;
                }
                if (end > 0) {
                    terminal.slaveOutput(target, bytes, end);
                    if (lines != UNREAD) {
                        new String(bytes, 0, end, StandardCharsets.UTF_8).lines().forEach(lines);
                    }
                    held.reset();
                    held.write(bytes, end, bytes.length - end);
                }
            }
        } catch (IOException e) {
            // The slave is gone; what it wrote before is forwarded.
        }
        if (held.size() > 0) {
            terminal.slaveOutput(target, held.toByteArray(), held.size());
            if (lines != UNREAD) {
                lines.accept(held.toString(StandardCharsets.UTF_8));
            }
        }
    }

    private static int lastNewline(byte[] bytes) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void tick() {
        while (!closed) {
            try {
                Thread.sleep(periodMs);
                CompletableFuture<JobSnapshot> f = new CompletableFuture<>();
                askSnapshot.accept(f);
                JobSnapshot s = f.get(SNAPSHOT_WAIT_MS, TimeUnit.MILLISECONDS);
                if (closed) {
                    return;
                }
                if (statusLine) {
                    terminal.status(format(s));
                } else {
                    terminal.line("bdmpiexec: " + format(s));
                }
            } catch (InterruptedException e) {
                return;
            } catch (ExecutionException | TimeoutException e) {
                // The scheduler is busy or gone: skip this tick.
            }
        }
    }

    /** Stops the display, waits for the slaves' last output, and leaves the cursor on a clean line. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ticker.interrupt();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_WAIT_MS);
        for (Thread t : forwarders) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        terminal.eraseStatus();
        terminal.restoreSystemStreams();
    }

    /**
     * The one-line summary, e.g. {@code 0:12 | 8 slaves: 2 running, 3 runnable, 1 blocked-recv, 2 blocked-coll, 0 done | buffered mem 4 msg 12.0 KiB, disk 1 msg 8.0 MiB};
     * under -nr auto the slaves' part starts with the count allowed and its last change, e.g.
     * {@code 8 slaves, -nr auto 3 (4->3 at 0:09): ...}.
     */
    static String format(JobSnapshot s) {
        StringBuilder b = new StringBuilder();
        b.append(clock(s.elapsedNanos()));
        b.append(" | ");
        if (s.nodes() > 1) {
            b.append(s.nodes()).append(" nodes, ");
        }
        b.append(s.slaves()).append(" slaves");
        if (s.nrunningAuto()) {
            b.append(", -nr auto ").append(s.nrunning());
            JobStats.NrunningChange last = s.lastNrunningChange();
            if (last != null) {
                b.append(" (").append(last.from()).append("->").append(last.to()).append(" at ")
                        .append(clock((long) (last.timeSeconds() * 1e9))).append(')');
            }
        }
        b.append(": ");
        if (s.starting() > 0) {
            b.append(s.starting()).append(" starting, ");
        }
        b.append(s.running()).append(" running, ").append(s.runnable()).append(" runnable, ")
                .append(s.blockedInReceive()).append(" blocked-recv, ").append(s.blockedInCollective())
                .append(" blocked-coll, ").append(s.finished()).append(" done");
        b.append(" | buffered mem ").append(s.messagesInMemory()).append(" msg ").append(bytes(s.bytesInMemory()))
                .append(", disk ").append(s.messagesOnDisk()).append(" msg ").append(bytes(s.bytesOnDisk()));
        return b.toString();
    }

    /** Minutes and seconds: 0:05, 12:30. */
    private static String clock(long nanos) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(nanos);
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }

    /** A byte count for people: 512 B, 12.0 KiB, 3.4 MiB, 1.2 GiB. */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /**
     * Terminal width (stty on the controlling terminal, else $COLUMNS, else 80): a status line
     * longer than the terminal would wrap, and a wrapped line cannot be erased in place.
     */
    private static int statusWidth() {
        try {
            Process p = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String[] rowsCols = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+");
            if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0 && rowsCols.length == 2) {
                return Math.max(20, Integer.parseInt(rowsCols[1]));
            }
        } catch (IOException | NumberFormatException e) {
            // No controlling terminal: fall back.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            return Math.max(20, Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "80").trim()));
        } catch (NumberFormatException e) {
            return 80;
        }
    }

    /** Everything written to the terminal in status-line mode, under one lock. */
    private static final class Terminal {
        final PrintStream out;
        final PrintStream err;
        private final int width;
        private boolean statusShown;
        /** The last slave output ended without a newline: drawing the status now would split that line. */
        private boolean midLine;

        Terminal(PrintStream out, PrintStream err, int width) {
            this.out = out;
            this.err = err;
            this.width = width;
        }

        synchronized void slaveOutput(PrintStream target, byte[] bytes, int length) {
            write(target, bytes, 0, length);
        }

        private synchronized void write(PrintStream target, byte[] bytes, int offset, int length) {
            if (length == 0) {
                return;
            }
            eraseStatus();
            target.write(bytes, offset, length);
            target.flush();
            midLine = bytes[offset + length - 1] != '\n';
        }

        /** The master's own messages (System.out/err) also erase the status line first. */
        void guardSystemStreams() {
            System.setOut(new PrintStream(new Guarded(out), true));
            System.setErr(new PrintStream(new Guarded(err), true));
        }

        void restoreSystemStreams() {
            System.setOut(out);
            System.setErr(err);
        }

        /** Writes to the real stream through {@link #write}, under the terminal's lock. */
        private final class Guarded extends OutputStream {
            private final PrintStream target;

            Guarded(PrintStream target) {
                this.target = target;
            }

            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                Terminal.this.write(target, b, off, len);
            }
        }

        synchronized void status(String text) {
            if (midLine) {
                return;
            }
            String line = text.length() >= width ? text.substring(0, width - 1) : text;
            err.print(ERASE_LINE + line);
            err.flush();
            statusShown = true;
        }

        synchronized void line(String text) {
            err.println(text);
            err.flush();
        }

        synchronized void eraseStatus() {
            if (statusShown) {
                err.print(ERASE_LINE);
                err.flush();
                statusShown = false;
            }
        }
    }
}
