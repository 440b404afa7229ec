package io.bdmpi.master.control;

import io.bdmpi.master.observe.JobSnapshot;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

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
            default:
                throw new IOException("bad control message type " + type);
        }
    }
}
