package io.bdmpi.tests.memory;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.bdmpi.tests.programs.startup.NativeHeap;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * A slave's C heap: what its JVM freed goes back to the OS within seconds, even where glibc would
 * keep it (a block still in use above it), so a slave that parks for long does not hold it; and
 * its malloc arenas are limited unless the user's environment says otherwise.
 */
class SlaveNativeHeapTest {

    private static final int MIB = 64;

    /** 64 MiB freed in the C heap of each of 2 slaves: more than 48 MiB of it leaves their RSS within 8 s. */
    @Test
    void freedNativeMemoryGoesBackToTheOs() {
        Assumptions.assumeTrue(jvmKnows("TrimNativeHeapInterval"), "this JDK cannot trim its C heap (17.0.9 and later can)");
        JobResult r = JobRunner.job(NativeHeap.class).ranks(2).running(2).args(MIB, 8_000).run();
        Expect.successfulRun(r, 2, 2);
        List<String> lines = r.stdoutMatching("NativeHeap rank [0-9]+ arenas 2 freedKiB [0-9]+ laterKiB [0-9]+");
        Expect.that(r, lines.size() == 2, "every slave reports, with 2 malloc arenas");
        for (String l : lines) {
            String[] w = l.split(" ");
            long freed = Long.parseLong(w[6]);
            long later = Long.parseLong(w[8]);
            Expect.that(r, freed - later > (MIB - 16) * 1024L, "the freed C heap left the slave's RSS: " + l);
        }
    }

    /** The user's MALLOC_ARENA_MAX reaches the slaves unchanged. */
    @Test
    void theUsersArenaLimitWins() {
        JobResult r = JobRunner.job(NativeHeap.class).ranks(2).running(2).args(1, 0).environment("MALLOC_ARENA_MAX", "4").run();
        Expect.successfulRun(r, 2, 2);
        Expect.that(r, r.stdoutMatching("NativeHeap rank [0-9]+ arenas 4 .*").size() == 2, "every slave has the user's 4 arenas");
    }

    private static boolean jvmKnows(String flag) {
        try {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(flag);
            return true;
        } catch (IllegalArgumentException unknown) {
            return false;
        }
    }
}
