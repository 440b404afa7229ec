package io.bdmpi.master.internode;

import jnr.ffi.Pointer;

/**
 * The C functions of an MPICH-ABI library (MPICH, Intel MPI, MVAPICH, Cray MPICH) that the masters
 * use, bound by jnr-ffi. Handles are C {@code int}s; out-parameters are native scratch memory owned
 * by the {@link Pump} thread, the only caller. Public only because jnr-ffi generates its proxy from it.
 */
public interface MpichFunctions {

    int MPI_Init_thread(Pointer argc, Pointer argv, int required, Pointer provided);

    int MPI_Initialized(Pointer flag);

    int MPI_Finalized(Pointer flag);

    int MPI_Finalize();

    int MPI_Abort(int comm, int errorCode);

    int MPI_Comm_rank(int comm, Pointer rank);

    int MPI_Comm_size(int comm, Pointer size);

    int MPI_Comm_split(int comm, int color, int key, Pointer newComm);

    int MPI_Comm_free(Pointer comm);

    int MPI_Comm_set_errhandler(int comm, int errhandler);

    int MPI_Isend(Pointer buf, int count, int datatype, int dest, int tag, int comm, Pointer request);

    int MPI_Irecv(Pointer buf, int count, int datatype, int source, int tag, int comm, Pointer request);

    int MPI_Iprobe(int source, int tag, int comm, Pointer flag, Pointer status);

    int MPI_Test(Pointer request, Pointer flag, Pointer status);

    int MPI_Get_count(Pointer status, int datatype, Pointer count);

    int MPI_Cancel(Pointer request);

    int MPI_Request_free(Pointer request);

    int MPI_Ibarrier(int comm, Pointer request);

    int MPI_Error_string(int errorCode, Pointer string, Pointer length);
}
