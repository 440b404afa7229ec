package io.bdmpi.master.scheduler;

/** Names of the common POSIX signals, for exit reports. */
public final class Signals {

    private static final String[] NAMES = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
        "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};

    private Signals() {
    }

    /** " (SIGKILL)" for 9, or "" when unnamed. */
    public static String name(int signal) {
        return signal > 0 && signal < NAMES.length ? " (" + NAMES[signal] + ")" : "";
    }
}
