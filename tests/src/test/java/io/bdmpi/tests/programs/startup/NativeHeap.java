package io.bdmpi.tests.programs.startup;

import mpi.MPI;
import mpi.MPIException;
import sun.misc.Unsafe;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Fills the C heap with {@code MIB} MiB (argument) in blocks small enough to come from a malloc
 * arena, frees all but the last (which keeps glibc from giving the rest back by itself), and prints
 * its anonymous resident memory right after the free and {@code WAIT_MS} (argument) later:
 * {@code NativeHeap rank R arenas A freedKiB F laterKiB L}, where A is the slave's
 * MALLOC_ARENA_MAX.
 */
public final class NativeHeap {

    private static final int BLOCK = 32 << 10;

    private NativeHeap() {
    }

    public static void main(String[] args) throws MPIException, IOException, ReflectiveOperationException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        long bytes = Long.parseLong(args[0]) << 20;
        long waitMs = Long.parseLong(args[1]);
        Field f = Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Unsafe unsafe = (Unsafe) f.get(null);
        List<Long> blocks = new ArrayList<>();
        for (long done = 0; done < bytes; done += BLOCK) {
            long a = unsafe.allocateMemory(BLOCK);
            unsafe.setMemory(a, BLOCK, (byte) 1);
            blocks.add(a);
        }
        for (int i = 0; i < blocks.size() - 1; i++) {
            unsafe.freeMemory(blocks.get(i));
        }
        long freed = rssAnonKiB();
        Thread.sleep(waitMs);
        long later = rssAnonKiB();
        System.out.println("NativeHeap rank " + rank + " arenas " + System.getenv("MALLOC_ARENA_MAX") + " freedKiB " + freed
                + " laterKiB " + later);
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    private static long rssAnonKiB() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("RssAnon:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no RssAnon in /proc/self/status");
    }
}
