package io.bdmpi.master.internode;

/**
 * What {@link MpiLibrary} must know of the library's ABI beyond the functions' names: how wide a
 * handle is, the handles of the predefined objects it uses, the constants that differ, and where
 * MPI_Status keeps the envelope of a probed message. One implementation per ABI.
 */
interface MpiConventions {

    /**
     * Bytes of a handle ({@code MPI_Comm}, {@code MPI_Datatype}, {@code MPI_Request}, ...), as an
     * argument and in memory: 4 for MPICH's integer handles, an address for Open MPI's.
     */
    int handleBytes();

    /** {@code MPI_COMM_WORLD}. */
    long commWorld();

    /** {@code MPI_COMM_NULL}. */
    long commNull();

    /** {@code MPI_BYTE}. */
    long byteType();

    /** {@code MPI_ERRORS_RETURN}. */
    long errorsReturn();

    /** {@code MPI_ANY_SOURCE}. */
    int anySource();

    /** {@code MPI_ANY_TAG}. */
    int anyTag();

    /** {@code MPI_UNDEFINED}. */
    int undefined();

    /** {@code sizeof(MPI_Status)}. */
    int statusBytes();

    /** Offset of {@code MPI_SOURCE} in MPI_Status. */
    int statusSourceOffset();

    /** Offset of {@code MPI_TAG} in MPI_Status. */
    int statusTagOffset();
}
