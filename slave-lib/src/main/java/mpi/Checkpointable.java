package mpi;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The state a program declares for checkpoints (a bdmpi-java extension, see
 * {@link BDMPI#checkpoint} and {@link BDMPI#restore}): everything a rank needs to go on from the
 * checkpoint as if it had never stopped, such as its iteration counter and its vectors.
 * Messages that were sent but not yet received are saved by the master; the program saves only
 * its own variables.
 *
 * <p>{@link #restore} must read exactly what {@link #save} wrote. The saved bytes of one rank
 * must stay under 2 GiB.
 */
public interface Checkpointable {

    /**
     * Writes this rank's state.
     *
     * @param out where to write the state
     * @throws IOException if writing fails: the checkpoint fails with {@code MPI.ERR_IO}
     */
    void save(DataOutputStream out) throws IOException;

    /**
     * Reads back the state that {@link #save} wrote, replacing the current one.
     *
     * @param in what {@link #save} wrote
     * @throws IOException if reading fails: the restore fails with {@code MPI.ERR_IO}
     */
    void restore(DataInputStream in) throws IOException;
}
