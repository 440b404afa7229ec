package io.bdmpi.master.internode;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Run under {@code mpiexec -n 2} by {@link PumpTest}: rank 0 sends a small control message and a
 * large data message (3 MiB + 7 bytes, a pattern) to rank 1 (after both checked split, free,
 * ibarrier and the init state), which checks them and echoes both
 * back; rank 0 checks the echo. Then they pass {@link #POLLED_ROUND_TRIPS} control messages back
 * and forth, the main thread sending and polling for them too. Then both stay idle for a second
 * and report the pump thread's CPU time, which the test bounds. Prints
 * "PumpCheck rank R ok abi=... polledHere=... idleCpuMs=..." or exits non-zero.
 */
public final class PumpCheck {

    static final int LARGE = 3 * 1024 * 1024 + 7;

    /** Control messages rank 0 and 1 pass back and forth, each thread sending and taking them itself. */
    static final int POLLED_ROUND_TRIPS = 200;

    private record Message(int source, int tag, ByteBuffer bytes, String thread) {
    }

    public static void main(String[] args) throws Exception {
        MpiAbi.Choice library = MpiAbi.choose(System.getenv());
        MpiLibrary mpi = MpiLibrary.load(library);
        Pump pump = new Pump(mpi);
        Pump.Started me = pump.started().get(30, TimeUnit.SECONDS);
        if (me.size() != 2) {
            throw new IllegalStateException("run me with 2 processes, not " + me.size());
        }
        BlockingQueue<Message> arrived = new LinkedBlockingQueue<>();
        pump.deliverTo(new Pump.Inbox() {
            @Override
            public ByteBuffer bufferFor(int source, int tag, int count) {
                return ByteBuffer.allocateDirect(count);
            }

            @Override
            public void received(int source, int tag, ByteBuffer message) {
                arrived.add(new Message(source, tag, message, Thread.currentThread().getName()));
            }
        });
        int peer = 1 - me.rank();
        checkCommunicatorCalls(pump);
        if (me.rank() == 0) {
            pump.send(peer, Pump.CONTROL_TAG, text("hello from 0"), null);
            pump.send(peer, Pump.DATA_TAG, pattern(LARGE), null);
        }
        Message control = next(arrived);
        Message data = next(arrived);
        check(control.source() == peer && control.tag() == Pump.CONTROL_TAG && "hello from 0".equals(text(control.bytes())),
                "control message " + control);
        check(data.source() == peer && data.tag() == Pump.DATA_TAG && data.bytes().equals(pattern(LARGE)), "data message " + data);
        if (me.rank() == 1) {
            pump.send(peer, Pump.CONTROL_TAG, text("hello from 0"), null);
            pump.send(peer, Pump.DATA_TAG, data.bytes(), null);
        }
        int polledHere = pollingRoundTrips(pump, arrived, me.rank(), peer);
        long cpuBefore = pumpCpuNs();
        Thread.sleep(1000);
        long idleCpuMs = (pumpCpuNs() - cpuBefore) / 1_000_000;
        pump.close();
        System.out.println("PumpCheck rank " + me.rank() + " ok abi=" + library.abi() + " polledHere=" + polledHere
                + " idleCpuMs=" + idleCpuMs);
    }

    /**
     * Control messages numbered 0, 1, ... back and forth, sent and polled for by this (main) thread
     * with {@link Pump#pollControl} while the pump polls too; checks each arrives once, in order.
     *
     * @return how many of them this thread took itself (the others the pump took)
     */
    private static int pollingRoundTrips(Pump pump, BlockingQueue<Message> arrived, int rank, int peer) throws Exception {
        int polledHere = 0;
        for (int i = 0; i < POLLED_ROUND_TRIPS; i++) {
            if (rank == 0) {
                pump.send(peer, Pump.CONTROL_TAG, text("ping " + i), null);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Message m;
            while ((m = arrived.poll()) == null) {
                pump.pollControl(Internode.POLLED_ARRIVALS_MAX);
                check(System.nanoTime() < deadline, "round trip " + i + ": nothing arrived within 30 s");
            }
            String expected = (rank == 0 ? "pong " : "ping ") + i;
            check(m.source() == peer && m.tag() == Pump.CONTROL_TAG && expected.equals(text(m.bytes())),
                    "polled message " + text(m.bytes()) + ", expected " + expected);
            polledHere += m.thread().equals(Thread.currentThread().getName()) ? 1 : 0;
            if (rank == 1) {
                pump.send(peer, Pump.CONTROL_TAG, text("pong " + i), null);
            }
        }
        return polledHere;
    }

    /** Split (each alone), rank and size of the result, free it, and a nonblocking barrier: on the pump thread. */
    private static void checkCommunicatorCalls(Pump pump) throws Exception {
        java.util.concurrent.CompletableFuture<String> result = new java.util.concurrent.CompletableFuture<>();
        pump.execute(mpi -> {
            int alone = mpi.split(MpiLibrary.COMM_WORLD, mpi.rank(MpiLibrary.COMM_WORLD), 0);
            int none = mpi.split(MpiLibrary.COMM_WORLD, MpiLibrary.UNDEFINED, 0);
            String sizes = mpi.size(alone) + "," + mpi.rank(alone) + "," + (none == MpiLibrary.COMM_NULL) + "," + mpi.isInitialized()
                    + "," + mpi.isFinalized();
            mpi.free(alone);
            int barrier = mpi.ibarrier(MpiLibrary.COMM_WORLD);
            while (!mpi.test(barrier)) {
                Thread.onSpinWait();
            }
            result.complete(sizes);
        });
        String got = result.get(30, TimeUnit.SECONDS);
        check("1,0,true,true,false".equals(got), "split/free/ibarrier/initialized results " + got);
    }

    private static Message next(BlockingQueue<Message> q) throws InterruptedException {
        Message m = q.poll(30, TimeUnit.SECONDS);
        check(m != null, "nothing arrived within 30 s");
        return m;
    }

    private static long pumpCpuNs() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("bdmpi-mpi-pump")) {
                return ManagementFactory.getThreadMXBean().getThreadCpuTime(t.getId());
            }
        }
        throw new IllegalStateException("no pump thread");
    }

    static ByteBuffer pattern(int n) {
        ByteBuffer b = ByteBuffer.allocateDirect(n);
        for (int i = 0; i < n; i++) {
            b.put((byte) (i * 31 + (i >>> 11)));
        }
        return b.flip();
    }

    private static ByteBuffer text(String s) {
        byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    private static String text(ByteBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("PumpCheck: wrong " + what);
            System.exit(3);
        }
    }
}
