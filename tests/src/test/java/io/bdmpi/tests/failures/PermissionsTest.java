package io.bdmpi.tests.failures;

import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.JobRunner.Signal;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * While a job runs, its work directory (and the spill directory in it) is {@code rwx------} and
 * owned by the job's user, and the master's socket lies inside it, so no other user can read
 * messages or connect. As root, also checks that user "nobody" cannot even see the socket.
 */
class PermissionsTest {

    @Test
    void workDirectoryAndSocketArePrivate() {
        JobResult r = JobRunner.job(Sleeper.class).ranks(2).running(2).timeout(Duration.ofSeconds(60))
                .whenStdoutHas("Sleeper rank 1 sleeping", (launcher, wd) -> {
                    try {
                        check(wd);
                    } finally {
                        JobRunner.send(launcher, Signal.TERM);
                    }
                }).run();
        Expect.that(r, r.exitCode() == 143, "bdmpiexec should have stopped on SIGTERM, exit code " + r.exitCode());
    }

    private static void check(Path wd) throws Exception {
        List<Path> jobDirs;
        try (Stream<Path> s = Files.list(wd)) {
            jobDirs = s.toList();
        }
        if (jobDirs.size() != 1) {
            throw new AssertionError("expected one job directory in -wd, found " + jobDirs);
        }
        Path root = jobDirs.get(0);
        Path spill = root.resolve("spill");
        Path socket = root.resolve("master.sock");
        String me = System.getProperty("user.name");
        for (Path dir : List.of(root, spill)) {
            String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS));
            if (!perms.equals("rwx------")) {
                throw new AssertionError(dir + " has permissions " + perms + ", expected rwx------");
            }
            String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
            if (!owner.equals(me)) {
                throw new AssertionError(dir + " is owned by " + owner + ", not " + me);
            }
        }
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(socket) || Files.isDirectory(socket)) {
            throw new AssertionError("no socket at " + socket);
        }
        if (me.equals("root") && Files.isExecutable(Path.of("/usr/bin/setpriv"))) {
            // As another user: the socket is out of reach (no search permission on its directory).
            Process p = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    "/bin/sh", "-c", "test -e \"$0\" || ls \"$1\"", socket.toString(), root.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            int rc = p.waitFor();
            if (rc == 0) {
                throw new AssertionError("user nobody can see the socket or list " + root + ": " + out);
            }
        }
    }
}
