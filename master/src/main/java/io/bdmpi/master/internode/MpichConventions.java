package io.bdmpi.master.internode;

/**
 * The MPICH ABI (MPICH, Intel MPI, MVAPICH, Cray MPICH): handles are {@code int}s with fixed values
 * for the predefined objects (mpi.h of MPICH 4), and MPI_Status is five ints: count_lo,
 * count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR.
 */
final class MpichConventions implements MpiConventions {

    @Override
    public int handleBytes() {
        return Integer.BYTES;
    }

    @Override
    public long commWorld() {
        return 0x44000000;
    }

    @Override
    public long commNull() {
        return 0x04000000;
    }

    @Override
    public long byteType() {
        return 0x4c00010d;
    }

    @Override
    public long errorsReturn() {
        return 0x54000001;
    }

    @Override
    public int anySource() {
        return -2;
    }

    @Override
    public int anyTag() {
        return -1;
    }

    @Override
    public int undefined() {
        return -32766;
    }

    @Override
    public int statusBytes() {
        return 5 * Integer.BYTES;
    }

    @Override
    public int statusSourceOffset() {
        return 2 * Integer.BYTES;
    }

    @Override
    public int statusTagOffset() {
        return 3 * Integer.BYTES;
    }
}
