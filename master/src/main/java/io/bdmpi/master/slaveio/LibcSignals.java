package io.bdmpi.master.slaveio;

import jnr.ffi.LibraryLoader;

/**
 * SIGSTOP and SIGCONT through libc's kill(2), which the JDK cannot send, bound with jnr-ffi on first
 * use (a job that never stops a slave does not load it). Linux signal numbers.
 */
final class LibcSignals implements ProcessSignals {

    static final LibcSignals INSTANCE = new LibcSignals();
    private static final int SIGCONT = 18;
    private static final int SIGSTOP = 19;

    /** The binding jnr-ffi makes. */
    public interface Calls {
        int kill(int pid, int signal);
    }

    private static final class Holder {
        static final Calls CALLS = LibraryLoader.create(Calls.class).load("c");
    }

    private LibcSignals() {
    }

    // A process that is gone already is no error: its exit event follows.
    @Override
    public void stop(long pid) {
        Holder.CALLS.kill((int) pid, SIGSTOP);
    }

    @Override
    public void resume(long pid) {
        Holder.CALLS.kill((int) pid, SIGCONT);
    }
}
