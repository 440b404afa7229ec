package io.bdmpi.master;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Which signal asked this JVM to stop, so that a job stopped by one records the exit code the JVM
 * then ends with (128 + the signal's number: 130 for SIGINT, 143 for SIGTERM). The JVM's own
 * handlers still do the stopping: the ones installed here note the signal and pass it on.
 */
public final class StopSignal {

    private static final int SIGTERM = 15;
    private static volatile int received = SIGTERM;
    private static boolean watching;

    private StopSignal() {
    }

    /** Starts noting SIGINT and SIGTERM; a signal this JVM ignores (nohup) stays ignored. */
    public static synchronized void watch() {
        if (watching) {
            return;
        }
        watching = true;
        for (String name : new String[] {"INT", "TERM"}) {
            Signal signal = new Signal(name);
            SignalHandler[] previous = new SignalHandler[1];
            try {
                previous[0] = Signal.handle(signal, s -> {
                    received = s.getNumber();
                    if (previous[0] != null) {
                        previous[0].handle(s);
                    } else {
                        System.exit(exitCode()); // only before handle() returned: what the JVM's handler does
                    }
                });
            } catch (IllegalArgumentException reservedByTheJvm) {
                continue; // -Xrs: the JVM leaves the signal to the OS, and so does this
            }
            if (previous[0] == SignalHandler.SIG_IGN || previous[0] == SignalHandler.SIG_DFL) {
                Signal.handle(signal, previous[0]);
            }
        }
    }

    /** The exit code of a job stopped by a signal: 128 + the signal noted, SIGTERM's if none was. */
    public static int exitCode() {
        return 128 + received;
    }
}
