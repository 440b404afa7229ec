package io.bdmpi.slave;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the master tells a slave at spawn, through environment variables (so the program's own
 * system properties and arguments stay untouched). The names are the contract between
 * {@code master} and {@code slave-lib}; the master builds them with {@link #toVariables()}.
 *
 * @param socketPath   the master's Unix-domain socket
 * @param worldRank    this slave's rank in COMM_WORLD
 * @param worldSize    size of COMM_WORLD
 * @param nodeId       index of this slave's node
 * @param nodeCount    number of nodes of the job
 * @param inlineMaxBytes largest message sent inline on the socket; larger ones go to a spill file
 * @param spillDir     directory for spill files of this job
 * @param masterPid    pid of the master process, watched so that a dead master ends its slaves
 * @param tagOutput    prefix each output line with the rank
 */
public record SlaveEnvironment(Path socketPath, int worldRank, int worldSize, int nodeId, int nodeCount,
                               int inlineMaxBytes, Path spillDir, long masterPid, boolean tagOutput) {

    public static final String SOCKET = "BDMPI_SOCKET";
    public static final String WORLD_RANK = "BDMPI_RANK";
    public static final String WORLD_SIZE = "BDMPI_SIZE";
    public static final String NODE_ID = "BDMPI_NODE";
    public static final String NODE_COUNT = "BDMPI_NODES";
    public static final String INLINE_MAX = "BDMPI_INLINE_MAX";
    public static final String SPILL_DIR = "BDMPI_SPILL_DIR";
    public static final String MASTER_PID = "BDMPI_MASTER_PID";
    public static final String TAG_OUTPUT = "BDMPI_TAG_OUTPUT";
    /**
     * Optional, a number of bytes: when parked with a heap larger than this (and grown since the
     * last time), run a full GC, so free heap goes back to the OS; 0: at every park
     * (--shrink-heap-on-park).
     */
    public static final String SHRINK_HEAP_ON_PARK = "BDMPI_SHRINK_HEAP_ON_PARK";
    /**
     * JVM options (serial collector) under which that full GC returns free heap to the OS at once.
     * Measured: a JVM that dropped 256 MiB of arrays went from 294 to 42 MiB RSS after
     * {@code System.gc()}; without them (or without -XX:-ShrinkHeapInSteps) it stayed at 290 MiB.
     */
    public static final List<String> HEAP_SHRINK_JVM_OPTIONS = List.of("-Xms8m", "-XX:-ShrinkHeapInSteps",
            "-XX:MinHeapFreeRatio=0", "-XX:MaxHeapFreeRatio=10");

    public SlaveEnvironment {
        if (worldRank < 0 || worldRank >= worldSize) {
            throw new IllegalArgumentException("rank " + worldRank + " outside world of " + worldSize);
        }
        if (inlineMaxBytes < 0) {
            throw new IllegalArgumentException("negative inline limit " + inlineMaxBytes);
        }
    }

    /** The variables a master sets for this slave. */
    public Map<String, String> toVariables() {
        return Map.of(SOCKET, socketPath.toString(), WORLD_RANK, Integer.toString(worldRank),
                WORLD_SIZE, Integer.toString(worldSize), NODE_ID, Integer.toString(nodeId),
                NODE_COUNT, Integer.toString(nodeCount), INLINE_MAX, Integer.toString(inlineMaxBytes),
                SPILL_DIR, spillDir.toString(), MASTER_PID, Long.toString(masterPid),
                TAG_OUTPUT, Boolean.toString(tagOutput));
    }

    /**
     * Reads the variables of this process.
     *
     * @return null when the process was not started by a bdmpi master
     * @throws IllegalStateException when some variables are present but not all, or malformed
     */
    public static SlaveEnvironment fromVariables(Map<String, String> env) {
        if (env.get(SOCKET) == null) {
            return null;
        }
        try {
            return new SlaveEnvironment(Path.of(required(env, SOCKET)), Integer.parseInt(required(env, WORLD_RANK)),
                    Integer.parseInt(required(env, WORLD_SIZE)), Integer.parseInt(required(env, NODE_ID)),
                    Integer.parseInt(required(env, NODE_COUNT)), Integer.parseInt(required(env, INLINE_MAX)),
                    Path.of(required(env, SPILL_DIR)), Long.parseLong(required(env, MASTER_PID)),
                    Boolean.parseBoolean(env.get(TAG_OUTPUT)));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("bad bdmpi slave environment: " + e.getMessage(), e);
        }
    }

    /**
     * The heap, in bytes, beyond which the master asked this slave to give free heap back while
     * parked, or -1 when it did not ask.
     */
    public static long shrinkHeapOnPark(Map<String, String> env) {
        String v = env.get(SHRINK_HEAP_ON_PARK);
        try {
            return v == null ? -1 : Math.max(0, Long.parseLong(v));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("bad bdmpi slave environment: " + SHRINK_HEAP_ON_PARK + "=" + v, e);
        }
    }

    private static String required(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null) {
            throw new IllegalArgumentException(name + " is not set");
        }
        return v;
    }
}
