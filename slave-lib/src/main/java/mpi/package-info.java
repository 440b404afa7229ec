/**
 * The MPI API of bdmpi-java: source-compatible with Open MPI's Java bindings (start with
 * {@link mpi.MPI}, {@link mpi.Comm} and {@link mpi.Request}), plus BDMPI's extensions
 * ({@link mpi.BDMPI}, {@link mpi.OutOfCore}, {@link mpi.Checkpointable}).
 *
 * <p>A program is run by {@code bdmpiexec}, one JVM per rank. Each rank talks only to the master
 * of its node, which buffers every message (so sends return at once) and parks a rank that
 * blocks in a receive, probe, wait or collective, so that the node's other ranks can run. Only
 * direct Buffers may be given to nonblocking calls, as in Open MPI.
 */
package mpi;
