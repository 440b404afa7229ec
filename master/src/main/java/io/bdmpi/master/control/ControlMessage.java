package io.bdmpi.master.control;

import io.bdmpi.master.observe.JobSnapshot;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a master and {@code bdmpiexec} tell each other on their side channel, and its wire form: a
 * type code (byte) then the fields in order ({@link DataOutputStream}'s big-endian encoding,
 * strings as modified UTF-8).
 */
public sealed interface ControlMessage {

    byte HELLO = 1;
    byte CLOCK_PROBE = 2;
    byte CLOCK_REPLY = 3;
    byte HEARTBEAT = 4;
    byte STATUS = 5;
    byte GOODBYE = 6;
    byte NODE_LOST = 7;
    byte HOLDINGS = 8;
    byte PLACED = 9;
    byte NOT_PLACED = 10;
    byte RANK_DIED = 11;

    /**
     * Writes the message (not flushed).
     *
     * @param out the connection's stream
     * @throws IOException if the connection fails
     */
    void writeTo(DataOutputStream out) throws IOException;

    /**
     * The master's first message.
     *
     * @param node its node (MPI rank)
     * @param host the host it runs on
     * @param pid  its process id there
     */
    record Hello(int node, String host, long pid) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(HELLO);
            out.writeInt(node);
            out.writeUTF(host);
            out.writeLong(pid);
        }
    }

    /** Master to launcher: what is your clock? {@code masterNanos}: the master's clock when it asked. */
    record ClockProbe(long masterNanos) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(CLOCK_PROBE);
            out.writeLong(masterNanos);
        }
    }

    /** Launcher to master, at once: the probe's {@code masterNanos} and the launcher's clock when it answered. */
    record ClockReply(long masterNanos, long launcherNanos) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(CLOCK_REPLY);
            out.writeLong(masterNanos);
            out.writeLong(launcherNanos);
        }
    }

    /** Either way: still here (a master sends {@link Status} instead when it has a snapshot). */
    record Heartbeat() implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(HEARTBEAT);
        }
    }

    /** Master to launcher: a heartbeat with the node's latest snapshot, for the job's status line. */
    record Status(JobSnapshot snapshot) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            JobSnapshot s = snapshot;
            out.writeByte(STATUS);
            out.writeLong(s.elapsedNanos());
            for (int n : new int[] {s.slaves(), s.starting(), s.running(), s.runnable(), s.blockedInReceive(),
                    s.blockedInCollective(), s.finished(), s.nrunning()}) {
                out.writeInt(n);
            }
            for (long n : new long[] {s.messagesInMemory(), s.bytesInMemory(), s.messagesOnDisk(), s.bytesOnDisk()}) {
                out.writeLong(n);
            }
            out.writeBoolean(s.nrunningAuto());
        }
    }

    /** Master to launcher, last: its part of the job has ended with {@code exitCode}; the connection closes now. */
    record Goodbye(int exitCode) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(GOODBYE);
            out.writeInt(exitCode);
        }
    }

    /** Launcher to master: {@code node} is lost ({@code reason}, as the launcher printed it); end the job's part here. */
    record NodeLost(int node, String reason) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(NODE_LOST);
            out.writeInt(node);
            out.writeUTF(reason);
        }
    }

    /**
     * One part of a checkpoint that a master's node-local checkpoint directory holds (its node's
     * own, or a buddy copy of another's).
     *
     * @param sequence  the checkpoint
     * @param committed whether the directory has committed it (else it is written whole and waits for the commit)
     * @param part      the node (of the run that took the checkpoint) whose part it is
     * @param nodes     that run's nodes
     * @param worldSize the checkpoint's ranks
     * @param ranks     the world ranks whose states the part holds
     */
    record HeldPart(int sequence, boolean committed, int part, int nodes, int worldSize, List<Integer> ranks) {
        void writeTo(DataOutputStream out) throws IOException {
            out.writeInt(sequence);
            out.writeBoolean(committed);
            out.writeInt(part);
            out.writeInt(nodes);
            out.writeInt(worldSize);
            writeInts(out, ranks);
        }

        static HeldPart read(DataInputStream in) throws IOException {
            return new HeldPart(in.readInt(), in.readBoolean(), in.readInt(), in.readInt(), in.readInt(), readInts(in));
        }
    }

    /**
     * Master to launcher, after its clock probes, when it is started again after a lost node
     * without a placement: the parts of checkpoints its node-local directory holds, from which the
     * launcher places the ranks ({@link Placed}) once every master has told it.
     *
     * @param parts what the directory holds (empty: nothing)
     */
    record Holdings(List<HeldPart> parts) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(HOLDINGS);
            out.writeInt(parts.size());
            for (HeldPart p : parts) {
                p.writeTo(out);
            }
        }
    }

    /**
     * Launcher to every master, once all sent their {@link Holdings}: go on from checkpoint
     * {@code sequence} (committing it first where the directory holds it uncommitted), with each
     * world rank on the node {@code nodeOf} gives.
     *
     * @param sequence the checkpoint
     * @param nodeOf   the node of each world rank
     */
    record Placed(int sequence, List<Integer> nodeOf) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(PLACED);
            out.writeInt(sequence);
            writeInts(out, nodeOf);
        }
    }

    /** Launcher to every master, instead of {@link Placed}: the job cannot go on, for {@code reason}. */
    record NotPlaced(String reason) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(NOT_PLACED);
            out.writeUTF(reason);
        }
    }

    /**
     * Master to launcher, before its goodbye: one of its ranks died ({@code failure}, the master's
     * one line), so that the launcher starts the job again from its last checkpoint ({@code --recover}).
     */
    record RankDied(String failure) implements ControlMessage {
        @Override
        public void writeTo(DataOutputStream out) throws IOException {
            out.writeByte(RANK_DIED);
            out.writeUTF(failure);
        }
    }

    private static void writeInts(DataOutputStream out, List<Integer> values) throws IOException {
        out.writeInt(values.size());
        for (int v : values) {
            out.writeInt(v);
        }
    }

    private static List<Integer> readInts(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("a control message gives a list of " + n + " numbers");
        }
        List<Integer> values = new ArrayList<>(Math.min(n, 1 << 16));
        for (int i = 0; i < n; i++) {
            values.add(in.readInt());
        }
        return List.copyOf(values);
    }

    /**
     * Reads one message.
     *
     * @param in the connection's stream
     * @return the message
     * @throws IOException if the connection fails or ends ({@link java.io.EOFException}), or for an unknown type
     */
    static ControlMessage read(DataInputStream in) throws IOException {
        byte type = in.readByte();
        switch (type) {
            case HELLO:
                return new Hello(in.readInt(), in.readUTF(), in.readLong());
            case CLOCK_PROBE:
                return new ClockProbe(in.readLong());
            case CLOCK_REPLY:
                return new ClockReply(in.readLong(), in.readLong());
            case HEARTBEAT:
                return new Heartbeat();
            case STATUS:
                long elapsed = in.readLong();
                int[] i = new int[8];
                for (int k = 0; k < i.length; k++) {
                    i[k] = in.readInt();
                }
                long[] l = new long[4];
                for (int k = 0; k < l.length; k++) {
                    l[k] = in.readLong();
                }
                return new Status(new JobSnapshot(elapsed, i[0], i[1], i[2], i[3], i[4], i[5], i[6], l[0], l[1], l[2], l[3],
                        i[7], in.readBoolean(), null, 1));
            case GOODBYE:
                return new Goodbye(in.readInt());
            case NODE_LOST:
                return new NodeLost(in.readInt(), in.readUTF());
            case HOLDINGS:
                int count = in.readInt();
                if (count < 0) {
                    throw new IOException("a master holds " + count + " checkpoint parts");
                }
                List<HeldPart> parts = new ArrayList<>();
                for (int k = 0; k < count; k++) {
                    parts.add(HeldPart.read(in));
                }
                return new Holdings(List.copyOf(parts));
            case PLACED:
                return new Placed(in.readInt(), readInts(in));
            case NOT_PLACED:
                return new NotPlaced(in.readUTF());
            case RANK_DIED:
                return new RankDied(in.readUTF());
            default:
                throw new IOException("bad control message type " + type);
        }
    }
}
