package io.bdmpi.examples;

import io.bdmpi.examples.store.Storage;
import mpi.BDMPI;
import mpi.Checkpointable;
import mpi.MPIException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The checkpoint options shared by the iterative applications:
 * {@code --checkpoint-every N} (iterations between checkpoints; 0, the default, never) and, for
 * tests only, {@code --die-at RANK:ITERATION}: that rank kills itself with SIGKILL when it starts
 * that iteration, unless the job was restored from a checkpoint (so a recovered job goes on).
 * The program calls {@link #restore} (or {@link #restoreInStretch}) once, before any other
 * communication, {@link #startIteration} at the start of each iteration and {@link #endIteration}
 * at its end.
 */
public final class Checkpoints {

    /** The option names this class reads. */
    public static final Set<String> OPTIONS = Set.of("checkpoint-every", "die-at");

    private final int every;
    private final int dieRank;
    private final int dieIteration;
    private boolean restored;

    private Checkpoints(int every, int dieRank, int dieIteration) {
        this.every = every;
        this.dieRank = dieRank;
        this.dieIteration = dieIteration;
    }

    /** {@code known} plus {@link #OPTIONS}. */
    public static Set<String> withOptions(Set<String> known) {
        Set<String> all = new LinkedHashSet<>(known);
        all.addAll(OPTIONS);
        return all;
    }

    /** Reads {@link #OPTIONS} from {@code o}. */
    public static Checkpoints from(Options o) {
        int every = o.integer("checkpoint-every", 0, 0, Integer.MAX_VALUE);
        String dieAt = o.string("die-at", "-1:-1");
        int colon = dieAt.indexOf(':');
        try {
            return new Checkpoints(every, Integer.parseInt(dieAt.substring(0, colon)),
                    Integer.parseInt(dieAt.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--die-at " + dieAt + " is not RANK:ITERATION");
        }
    }

    /** Restores {@code state} from the job's last checkpoint, if it has one; true if it did. */
    public boolean restore(Storage st, Checkpointable state) throws MPIException {
        st.blocking(() -> restoreInStretch(state));
        return restored;
    }

    /**
     * As {@link #restore(Storage, Checkpointable)}, inside a {@link Storage#blocking} stretch of
     * the caller's, which may go on with other calls (so that the rank parks once for all of them).
     */
    public boolean restoreInStretch(Checkpointable state) throws MPIException {
        restored = BDMPI.restore(state);
        return restored;
    }

    /** Kills this process if {@code --die-at} names this rank and iteration and the job was not restored. */
    public void startIteration(int rank, int iteration) {
        if (rank == dieRank && iteration == dieIteration && !restored) {
            System.out.flush();
            try {
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                Thread.sleep(60_000);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("--die-at could not kill rank " + rank, e);
            }
            throw new IllegalStateException("--die-at: rank " + rank + " survived its SIGKILL");
        }
    }

    /** Whether {@link #endIteration} checkpoints at {@code iteration}: a multiple of {@code --checkpoint-every}. */
    public boolean due(int iteration) {
        return every > 0 && iteration % every == 0;
    }

    /** Checkpoints {@code state} if it is {@link #due} at {@code iteration}. */
    public void endIteration(Storage st, int iteration, Checkpointable state) throws MPIException {
        if (due(iteration)) {
            st.blocking(() -> BDMPI.checkpoint(state));
        }
    }

    /** Writes {@code v}'s length and values. */
    public static void save(DataOutputStream out, Storage.Doubles v) throws IOException {
        out.writeInt(v.length());
        for (int i = 0; i < v.length(); i++) {
            out.writeDouble(v.get(i));
        }
    }

    /** Reads into {@code v} what {@link #save(DataOutputStream, Storage.Doubles)} wrote, of the same length. */
    public static void restore(DataInputStream in, Storage.Doubles v) throws IOException {
        checkLength(in.readInt(), v.length());
        for (int i = 0; i < v.length(); i++) {
            v.set(i, in.readDouble());
        }
    }

    /** Writes {@code v}'s length and values. */
    public static void save(DataOutputStream out, Storage.Ints v) throws IOException {
        out.writeInt(v.length());
        for (int i = 0; i < v.length(); i++) {
            out.writeInt(v.get(i));
        }
    }

    /** Reads into {@code v} what {@link #save(DataOutputStream, Storage.Ints)} wrote, of the same length. */
    public static void restore(DataInputStream in, Storage.Ints v) throws IOException {
        checkLength(in.readInt(), v.length());
        for (int i = 0; i < v.length(); i++) {
            v.set(i, in.readInt());
        }
    }

    private static void checkLength(int saved, int expected) throws IOException {
        if (saved != expected) {
            throw new IOException("the checkpoint holds " + saved + " values where this rank has " + expected
                    + ": was it taken on other input?");
        }
    }
}
