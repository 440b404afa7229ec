package io.bdmpi.master.internode;

import jnr.ffi.Pointer;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The C functions of libmpi that the masters use, bound by jnr-ffi, for either ABI: a parameter
 * marked {@link Handle} is passed as the ABI's handle type (see {@link MpiConventions#handleBytes}).
 * Out-parameters are native scratch memory owned by the {@link Pump} thread, the only caller.
 * Public only because jnr-ffi generates its proxy from it.
 */
public interface MpiFunctions {

    /**
     * A handle ({@code MPI_Comm}, {@code MPI_Datatype}, {@code MPI_Errhandler}): an {@code int} in
     * MPICH's ABI, an address in Open MPI's; held in a Java {@code long} for both.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    @interface Handle {
    }

    int MPI_Init_thread(Pointer argc, Pointer argv, int required, Pointer provided);

    int MPI_Initialized(Pointer flag);

    int MPI_Finalized(Pointer flag);

    int MPI_Finalize();

    int MPI_Abort(@Handle long comm, int errorCode);

    int MPI_Comm_rank(@Handle long comm, Pointer rank);

    int MPI_Comm_size(@Handle long comm, Pointer size);

    int MPI_Comm_split(@Handle long comm, int color, int key, Pointer newComm);

    int MPI_Comm_free(Pointer comm);

    int MPI_Comm_set_errhandler(@Handle long comm, @Handle long errhandler);

    int MPI_Isend(Pointer buf, int count, @Handle long datatype, int dest, int tag, @Handle long comm, Pointer request);

    int MPI_Irecv(Pointer buf, int count, @Handle long datatype, int source, int tag, @Handle long comm, Pointer request);

    int MPI_Iprobe(int source, int tag, @Handle long comm, Pointer flag, Pointer status);

    int MPI_Test(Pointer request, Pointer flag, Pointer status);

    int MPI_Get_count(Pointer status, @Handle long datatype, Pointer count);

    int MPI_Cancel(Pointer request);

    int MPI_Ibarrier(@Handle long comm, Pointer request);

    int MPI_Error_string(int errorCode, Pointer string, Pointer length);
}
