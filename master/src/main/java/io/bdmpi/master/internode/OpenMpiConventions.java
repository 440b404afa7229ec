package io.bdmpi.master.internode;

import com.kenai.jffi.Library;

/**
 * Open MPI's ABI (mpi.h of Open MPI 4): a handle is the address of an object, the predefined ones
 * being global symbols of libmpi ({@code MPI_COMM_WORLD} is {@code &ompi_mpi_comm_world});
 * MPI_Status is MPI_SOURCE, MPI_TAG, MPI_ERROR, _cancelled (ints) and _ucount (a size_t): 24 bytes.
 */
final class OpenMpiConventions implements MpiConventions {

    private final int addressBytes;
    private final long commWorld;
    private final long commNull;
    private final long byteType;
    private final long errorsReturn;

    /**
     * Looks the predefined objects up in the loaded library.
     *
     * @throws IllegalStateException when one is missing (the library is not Open MPI)
     */
    OpenMpiConventions(Library library, String name, int addressBytes) {
        this.addressBytes = addressBytes;
        this.commWorld = symbol(library, name, "ompi_mpi_comm_world");
        this.commNull = symbol(library, name, "ompi_mpi_comm_null");
        this.byteType = symbol(library, name, "ompi_mpi_byte");
        this.errorsReturn = symbol(library, name, "ompi_mpi_errors_return");
    }

    private static long symbol(Library library, String name, String symbol) {
        long address = library.getSymbolAddress(symbol);
        if (address == 0) {
            throw new IllegalStateException("the MPI library " + name + " has no symbol " + symbol + ", so it is not Open MPI;"
                    + " set " + MpiAbi.ABI_VARIABLE + "=mpich if it has the MPICH ABI");
        }
        return address;
    }

    @Override
    public int handleBytes() {
        return addressBytes;
    }

    @Override
    public long commWorld() {
        return commWorld;
    }

    @Override
    public long commNull() {
        return commNull;
    }

    @Override
    public long byteType() {
        return byteType;
    }

    @Override
    public long errorsReturn() {
        return errorsReturn;
    }

    @Override
    public int anySource() {
        return -1;
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
        return 4 * Integer.BYTES + addressBytes;
    }

    @Override
    public int statusSourceOffset() {
        return 0;
    }

    @Override
    public int statusTagOffset() {
        return Integer.BYTES;
    }
}
