package io.bdmpi.protocol;

/**
 * What a slave asks of its master. Requests marked "replied" make the slave wait for exactly one
 * {@link MasterReply}; the reply is also the signal that the slave may run again. The others are
 * one-way: the master acts on them in the order they arrive on the slave's socket.
 */
public sealed interface SlaveRequest {

    /** First request on a new connection: replied with {@link MasterReply.Go} once the slave may run. */
    record Hello(int worldRank, long pid) implements SlaveRequest {
    }

    /**
     * One-way: a send. The master owns the message from now on. A synchronous send (MPI_Ssend,
     * MPI_Issend) names a request of the sender, collected like a receive with {@link Collect}: it
     * completes, with {@link MasterReply.SendMatched}, once a receive has matched the message.
     *
     * @param syncId slave-chosen id from the same sequence as {@link PostRecv}'s for a synchronous
     *               send; 0 for a buffered one
     */
    record Send(int commId, int dest, int tag, Payload payload, long syncId) implements SlaveRequest {
        public Send {
            if (payload == null) {
                throw new IllegalArgumentException("send needs a payload");
            }
        }

        /** A buffered send: complete once the master has the message. */
        public Send(int commId, int dest, int tag, Payload payload) {
            this(commId, dest, tag, payload, 0);
        }
    }

    /**
     * One-way: post a receive. Posted receives of one slave match arriving messages in the order
     * they were posted, as MPI requires.
     *
     * @param requestId slave-chosen id, unique for the slave's lifetime
     * @param source    rank in the communicator, or {@link Protocol#ANY_SOURCE}
     * @param tag       tag, or {@link Protocol#ANY_TAG}
     */
    record PostRecv(long requestId, int commId, int source, int tag) implements SlaveRequest {
    }

    /**
     * Replied with {@link MasterReply.Deliveries}: hands over the messages matched to any of the
     * given posted receives. With {@code block}, the reply waits until at least {@code minReady} of
     * them are matched (the slave is parked meanwhile); without it, the reply is immediate.
     */
    record Collect(long[] requestIds, int minReady, boolean block) implements SlaveRequest {
        public Collect {
            if (requestIds == null || minReady < 0 || minReady > requestIds.length) {
                throw new IllegalArgumentException("bad collect: minReady=" + minReady);
            }
        }
    }

    /** Replied with {@link MasterReply.CancelResult}: withdraw a posted receive not yet matched. */
    record Cancel(long requestId) implements SlaveRequest {
    }

    /** Replied with {@link MasterReply.ProbeResult}; with {@code block} only once a message matches. */
    record Probe(int commId, int source, int tag, boolean block) implements SlaveRequest {
    }

    /**
     * One-way: this member's part of a collective operation; its result is collected like a
     * receive's message, with {@link Collect} on {@code requestId}. Members of a communicator start
     * its collectives in the same order; the master pairs their k-th starts and checks that kind,
     * root, operator, type and count agree. See {@link CollectiveKind} for what each kind carries.
     *
     * @param requestId  slave-chosen id, from the same sequence as {@link PostRecv}'s
     * @param root       rank of the root in the communicator, for rooted kinds (else 0)
     * @param op         the reduction, or {@link ReduceOp#NONE}
     * @param type       element type of a reduction, or {@link ElementType#NONE}
     * @param count      elements of a reduction, bytes of a broadcast; 0 otherwise
     * @param blockBytes bytes of each rank's block in {@code data} (SCATTER root, ALLTOALL,
     *                   REDUCE_SCATTER), else empty
     */
    record StartCollective(long requestId, int commId, CollectiveKind kind, int root, ReduceOp op, ElementType type,
                           int count, long[] blockBytes, Payload data) implements SlaveRequest {
        public StartCollective {
            if (kind == null || op == null || type == null || blockBytes == null || data == null) {
                throw new IllegalArgumentException("incomplete collective start");
            }
        }
    }

    /**
     * One-way: this member's part of splitting (or, with {@code color} 0 and {@code key} its rank on
     * every member, duplicating) a communicator. Collected like a collective; the result's values
     * are the new communicator's id, this member's rank, the size and the members' COMM_WORLD ranks
     * in rank order ({@link Protocol#NO_COMM}, 0, 0 and no members for {@link Protocol#UNDEFINED_COLOR}).
     */
    record StartSplit(long requestId, int commId, int color, int key) implements SlaveRequest {
    }

    /**
     * One-way: this member's part of making a communicator over exactly {@code members} (world
     * ranks, in rank order), called by those members only ({@code MPI_Comm_create_group}, and the
     * union of an intercommunicator). The k-th call of each member with the same members,
     * {@code lowGroupSize} and {@code tag} belong together. Collected like a collective; the
     * result's values are the new communicator's id, this member's rank and the size.
     *
     * @param lowGroupSize 0 for an intracommunicator; for an intercommunicator the size of its first
     *                     group (members {@code [0, lowGroupSize)}, facing the others): a send's
     *                     destination is then a rank of the other group, and a message's source
     *                     the sender's rank in its own group
     * @param tag          tells concurrent calls over the same members apart (negative: the runtime's own)
     */
    record StartGroupComm(long requestId, int[] members, int lowGroupSize, int tag) implements SlaveRequest {
        public StartGroupComm {
            if (members == null || lowGroupSize < 0 || lowGroupSize >= Math.max(members.length, 1)) {
                throw new IllegalArgumentException("bad group communicator start");
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StartGroupComm g && g.requestId == requestId && java.util.Arrays.equals(g.members, members)
                    && g.lowGroupSize == lowGroupSize && g.tag == tag;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(requestId, java.util.Arrays.hashCode(members), lowGroupSize, tag);
        }

        @Override
        public String toString() {
            return "StartGroupComm[requestId=" + requestId + ", members=" + java.util.Arrays.toString(members)
                    + ", lowGroupSize=" + lowGroupSize + ", tag=" + tag + "]";
        }
    }

    /** Replied with {@link MasterReply.CommInfo}: where the members of a communicator live. */
    record QueryComm(int commId) implements SlaveRequest {
    }

    /**
     * Replied with {@link MasterReply.PointerValue}: an operation on the shared file pointer
     * {@code key} of an open file (MPI-IO), which the master of {@code ownerNode} keeps; another
     * node's master forwards it there, and the slave waits parked.
     *
     * @param key       the pointer's id, chosen at random by the rank that opened the file first
     * @param ownerNode the node that keeps it: that of the file communicator's rank 0
     * @param value     the operand: a delta for {@link PointerOp#ADD}, the new value for {@link PointerOp#SET}
     */
    record FilePointer(long key, int ownerNode, PointerOp op, long value) implements SlaveRequest {
        public FilePointer {
            if (op == null || ownerNode < 0) {
                throw new IllegalArgumentException("bad file pointer request");
            }
        }
    }

    /** Replied with {@link MasterReply.Go} once no other slave of the node is in a critical section. */
    record CriticalEnter() implements SlaveRequest {
    }

    /** One-way: leave the node's critical section. */
    record CriticalExit() implements SlaveRequest {
    }

    /**
     * Replied with {@link MasterReply.Go} once this slave holds the lock of rank {@code target}'s
     * part of window {@code winId} (MPI_Win_lock): a shared lock while no exclusive one is held, an
     * exclusive one while no other is held. Waiters are granted in arrival order, and the slave is
     * parked meanwhile. The master of the node owns the lock table.
     *
     * A target of another node has its lock kept by that node's master, to which this slave's
     * master passes the request and, later, the unlock.
     *
     * @param winId  the window's id (the id of the window's own communicator)
     * @param target rank in the window's communicator
     * @param node   the node the target runs on
     */
    record WinLock(int winId, int target, boolean exclusive, int node) implements SlaveRequest {
    }

    /**
     * One-way: release the lock this slave holds on rank {@code target}'s part of window
     * {@code winId}, kept by the master of {@code node}.
     */
    record WinUnlock(int winId, int target, int node) implements SlaveRequest {
    }

    /**
     * Replied with {@link MasterReply.RmaResult} once the master of {@code op.targetNode()} (another
     * node) has applied the one-sided operation; the slave is parked meanwhile, so the operation is
     * complete at the target when the call returns.
     */
    record WinRma(RmaRequest op) implements SlaveRequest {
    }

    /** Replied with {@link MasterReply.Go}: the slave has left MPI and will exit. */
    record Finalize(long peakRssBytes) implements SlaveRequest {
    }

    /**
     * One-way: the slave has unmapped the recycled spill file of a message it received (see
     * {@code SpillDirectory.isRecycled}); the master may overwrite it with another message.
     */
    record ReleaseSpill(String fileName) implements SlaveRequest {
        public ReleaseSpill {
            if (fileName == null || fileName.isEmpty()) {
                throw new IllegalArgumentException("release needs a file name");
            }
        }
    }

    /**
     * One-way: what reports call communicator {@code commId} from now on (a name the program set, or
     * what the runtime made it for: a window's or a file's), instead of its number.
     */
    record NameComm(int commId, String name) implements SlaveRequest {
        public NameComm {
            if (name == null) {
                throw new IllegalArgumentException("a communicator's name cannot be null");
            }
        }
    }

    /** One-way: end the whole job (Comm.abort, or a fatal MPI error under ERRORS_ARE_FATAL). */
    record Abort(int errorCode, String reason) implements SlaveRequest {
        public Abort {
            reason = reason == null ? "" : reason;
        }
    }
}
