package io.bdmpi.bench;

import io.bdmpi.ooc.Unmapper;
import io.bdmpi.spill.SpillDirectory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The work a large message between two nodes costs besides MPI's own copy, one stage at a time in
 * one JVM with bdmpi's own spill code, so that {@link InternodeBenchmarkTest} can tell how far its
 * path could go on this machine if every stage overlapped perfectly with the others:
 * <ol>
 *   <li><b>write</b>: the sending slave packs the message from its heap, a 256 KiB direct buffer at
 *       a time, into a new spill file ({@code SlaveRuntime}'s way when its master has returned no
 *       file of an earlier message);</li>
 *   <li><b>delete</b>: deleting that file (what the sending master did once MPI had sent it, before
 *       it returned files to their slaves);</li>
 *   <li><b>read</b>: the receiving slave maps the message in a recycled file (the receiving master's
 *       pool, where MPI put it) and copies it into its heap;</li>
 *   <li><b>rewrite</b>: the sending slave packs the message into a file it wrote before,
 *       overwriting its cached pages, as it does with a file its master returned.</li>
 * </ol>
 * Each round writes all its messages before deleting them, as a round of {@link Bandwidth} keeps
 * them all in flight, and prints {@code SpillStages round=R bytes=B messages=M writeNs=W deleteNs=D
 * readNs=T rewriteNs=O}; the first round warms up and is not printed.
 *
 * <p>Usage: {@code SpillStages directory bytes messages rounds} (the directory exists and is left
 * empty).
 */
public final class SpillStages {

    private static final int PACK_CHUNK_BYTES = 256 * 1024;
    private static final String POOL_FILE = SpillDirectory.RECYCLED_PREFIX + "stages";

    private SpillStages() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        int bytes = Integer.parseInt(args[1]);
        int messages = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        SpillDirectory spill = new SpillDirectory(dir, "stages-");
        byte[] sent = new byte[bytes];
        for (int i = 0; i < bytes; i += 4096) {
            sent[i] = (byte) (i >>> 12);
        }
        byte[] received = new byte[bytes];
        ByteBuffer chunk = ByteBuffer.allocateDirect(PACK_CHUNK_BYTES);
        try {
            Files.move(dir.resolve(write(spill, sent, chunk)), dir.resolve(POOL_FILE));
            for (int round = 0; round <= rounds; round++) {
                String[] names = new String[messages];
                long start = System.nanoTime();
                for (int m = 0; m < messages; m++) {
                    names[m] = write(spill, sent, chunk);
                }
                long written = System.nanoTime();
                for (String name : names) {
                    spill.discard(name);
                }
                long deleted = System.nanoTime();
                for (int m = 0; m < messages; m++) {
                    MappedByteBuffer mapped = spill.mapMessage(POOL_FILE, bytes);
                    mapped.get(0, received, 0, bytes);
                    Unmapper.unmap(mapped);
                }
                long read = System.nanoTime();
                try (FileChannel pool = FileChannel.open(dir.resolve(POOL_FILE), StandardOpenOption.WRITE)) {
                    for (int m = 0; m < messages; m++) {
                        pool.position(0);
                        pack(sent, chunk, b -> {
                            while (b.hasRemaining()) {
                                pool.write(b);
                            }
                        });
                    }
                }
                long rewritten = System.nanoTime();
                if (received[bytes - 1] != sent[bytes - 1] || received[4096 % bytes] != sent[4096 % bytes]) {
                    throw new IllegalStateException("the pool file's bytes did not arrive");
                }
                if (round > 0) {
                    System.out.println(Measured.line("SpillStages", "round", round, "bytes", bytes, "messages", messages,
                            "writeNs", written - start, "deleteNs", deleted - written, "readNs", read - deleted,
                            "rewriteNs", rewritten - read));
                }
            }
        } finally {
            spill.discard(POOL_FILE);
        }
    }

    private static String write(SpillDirectory spill, byte[] message, ByteBuffer chunk) throws IOException {
        try (SpillDirectory.Writer file = spill.newFile(message.length)) {
            pack(message, chunk, file::write);
            return file.finish();
        }
    }

    /** Packs {@code message} into {@code sink} a chunk at a time, as a slave packs a large message. */
    private static void pack(byte[] message, ByteBuffer chunk, ChunkSink sink) throws IOException {
        for (int at = 0; at < message.length; at += chunk.capacity()) {
            chunk.clear().put(message, at, Math.min(chunk.capacity(), message.length - at));
            sink.write(chunk.flip());
        }
    }

    private interface ChunkSink {
        /** Writes all remaining bytes of {@code chunk}. */
        void write(ByteBuffer chunk) throws IOException;
    }
}
