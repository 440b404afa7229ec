package mpi;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MPI-IO on one rank: views, pointers, modes and errors (the e2e tests run it on many). */
class FileTest extends WithMaster {

    private static final int RW_CREATE = MPI.MODE_RDWR | MPI.MODE_CREATE;

    private String path(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void writesAndReadsThroughAStridedView() throws Exception {
        File f = new File(MPI.COMM_SELF, path("strided"), RW_CREATE);
        Datatype pairs = Datatype.createVector(3, 2, 4, MPI.INT);
        pairs.commit();
        f.setView(8, MPI.INT, pairs, "native");
        assertEquals(6, f.write(new int[] {1, 2, 3, 4, 5, 6}, 6, MPI.INT).getCount(MPI.INT));
        assertEquals(6, f.getPosition());
        assertEquals(8 + 4 * 4 + 4, f.getByteOffset(3));
        f.close();
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("strided"))).order(java.nio.ByteOrder.nativeOrder());
        assertEquals(8 + 4 * 10, b.capacity());
        int[] expect = {1, 2, 0, 0, 3, 4, 0, 0, 5, 6};
        for (int i = 0; i < expect.length; i++) {
            assertEquals(expect[i], b.getInt(8 + 4 * i), "int " + i);
        }

        File g = new File(MPI.COMM_SELF, path("strided"), MPI.MODE_RDONLY);
        int[] all = new int[12];
        Status s = g.readAt(0, all, 12, MPI.INT);
        assertEquals(12, s.getCount(MPI.INT));
        g.setView(0, MPI.INT, MPI.INT, "native");
        g.seek(-2, MPI.SEEK_END);
        assertEquals(10, g.getPosition());
        int[] tail = new int[4];
        assertEquals(2, g.read(tail, 4, MPI.INT).getCount(MPI.INT), "a short read at the end of the file");
        assertArrayEquals(new int[] {5, 6, 0, 0}, tail);
        g.close();
    }

    @Test
    void sharedPointerAndNonblockingCalls() throws Exception {
        File f = new File(MPI.COMM_SELF, path("shared"), RW_CREATE | MPI.MODE_DELETE_ON_CLOSE);
        assertFalse(Files.exists(dir.resolve("shared")), "a delete-on-close file loses its name at once");
        f.writeShared(new byte[] {1, 2}, 2, MPI.BYTE);
        f.writeOrdered(new byte[] {3}, 1, MPI.BYTE);
        assertEquals(3, f.getPositionShared());
        ByteBuffer direct = MPI.newByteBuffer(3);
        Request r = f.iReadAt(0, direct, 3, MPI.BYTE);
        Request.waitAll(new Request[] {r});
        assertEquals(3, direct.get(2));
        f.seekShared(1, MPI.SEEK_SET);
        byte[] one = new byte[1];
        f.readOrderedBegin(one, 1, MPI.BYTE);
        assertEquals(1, f.readOrderedEnd(one).getCount(MPI.BYTE));
        assertEquals(2, one[0]);
        f.setAtomicity(true);
        f.writeAt(5, new byte[] {9}, 1, MPI.BYTE);
        assertEquals(6, f.getSize());
        f.setSize(2);
        assertEquals(2, f.getSize());
        f.preallocate(100);
        assertEquals(100, f.getSize());
        f.close();
        assertEquals(0, master.filePointersKept(), "close frees the shared pointer");
        assertError(MPI.ERR_FILE, () -> f.getSize());
    }

    @Test
    void badInputGetsMpiErrorClassesAndLeavesNothing() throws Exception {
        assertError(MPI.ERR_AMODE, () -> new File(MPI.COMM_SELF, path("x"), MPI.MODE_RDONLY | MPI.MODE_CREATE));
        assertError(MPI.ERR_AMODE, () -> new File(MPI.COMM_SELF, path("x"), MPI.MODE_CREATE));
        assertError(MPI.ERR_NO_SUCH_FILE, () -> new File(MPI.COMM_SELF, path("x"), MPI.MODE_RDONLY));
        assertError(MPI.ERR_NO_SUCH_FILE, () -> File.delete(path("x")));
        assertError(MPI.ERR_NO_SUCH_FILE, () -> new File(MPI.COMM_SELF, path("no/dir/x"), RW_CREATE));
        assertError(MPI.ERR_BAD_FILE, () -> new File(MPI.COMM_SELF, dir.toString(), MPI.MODE_RDONLY));
        new File(MPI.COMM_SELF, path("x"), RW_CREATE).close();
        assertError(MPI.ERR_FILE_EXISTS, () -> new File(MPI.COMM_SELF, path("x"), RW_CREATE | MPI.MODE_EXCL));
        File ro = new File(MPI.COMM_SELF, path("x"), MPI.MODE_RDONLY);
        assertError(MPI.ERR_READ_ONLY, () -> ro.write(new byte[1], 1, MPI.BYTE));
        assertError(MPI.ERR_UNSUPPORTED_DATAREP, () -> ro.setView(0, MPI.BYTE, MPI.BYTE, "external64"));
        assertError(MPI.ERR_UNSUPPORTED_DATAREP, () -> ro.setView(0, MPI.BYTE, MPI.DOUBLE_INT, "external32"));
        assertError(MPI.ERR_TYPE, () -> ro.setView(0, MPI.INT, MPI.SHORT, "native"));
        assertError(MPI.ERR_ARG, () -> ro.seek(-1, MPI.SEEK_SET));
        assertEquals(MPI.ERRORS_RETURN.toString(), ro.getErrhandler().toString());
        ro.close();
        File wo = new File(MPI.COMM_SELF, path("x"), MPI.MODE_WRONLY);
        assertError(MPI.ERR_ACCESS, () -> wo.read(new byte[1], 1, MPI.BYTE));
        wo.close();
        File.delete(path("x"));
        try (var left = Files.list(dir)) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith("x")), "nothing left beside the files");
        }
        assertEquals(0, master.filePointersKept(), "no shared pointer is kept after close");
    }

    @Test
    void external32IsBigEndianInTheFileAndNativeInMemory() throws Exception {
        File f = new File(MPI.COMM_SELF, path("ext"), RW_CREATE);
        Datatype everyOther = Datatype.createResized(MPI.INT, 0, 8);
        everyOther.commit();
        f.setView(4, MPI.INT, everyOther, "external32");
        assertEquals("external32", f.getView().getDataRep());
        f.write(new int[] {0x01020304, 0x0a0b0c0d}, 2, MPI.INT);
        ByteBuffer direct = MPI.newByteBuffer(16);
        direct.order(java.nio.ByteOrder.nativeOrder()).putLong(0, 0x1122334455667788L).putDouble(8, 1.5);
        Datatype longThenDouble = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.LONG, MPI.DOUBLE});
        longThenDouble.commit();
        f.setView(20, MPI.BYTE, MPI.BYTE, "external32");
        f.write(direct, 1, longThenDouble);
        assertError(MPI.ERR_UNSUPPORTED_DATAREP, () -> f.write(new int[2], 1, MPI.INT2));
        f.close();

        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("ext"))); // big-endian, as external32 is
        assertEquals(36, file.capacity());
        assertEquals(0x01020304, file.getInt(4));
        assertEquals(0x0a0b0c0d, file.getInt(12));
        assertEquals(0x1122334455667788L, file.getLong(20));
        assertEquals(1.5, file.getDouble(28));

        File g = new File(MPI.COMM_SELF, path("ext"), MPI.MODE_RDONLY);
        g.setView(4, MPI.INT, everyOther, "external32");
        int[] back = new int[2];
        assertEquals(2, g.read(back, 2, MPI.INT).getCount(MPI.INT));
        assertArrayEquals(new int[] {0x01020304, 0x0a0b0c0d}, back);
        g.setView(20, MPI.LONG, MPI.LONG, "external32");
        long[] longs = new long[3];
        assertEquals(2, g.readAt(0, longs, 3, MPI.LONG).getCount(MPI.LONG), "a short read converts what it read");
        assertEquals(0x1122334455667788L, longs[0]);
        assertEquals(1.5, Double.longBitsToDouble(longs[1]));
        g.close();
    }
}
