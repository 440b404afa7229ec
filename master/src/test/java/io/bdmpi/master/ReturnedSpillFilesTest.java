package io.bdmpi.master;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReturnedSpillFilesTest {

    @TempDir
    Path dir;

    @Test
    void shouldReturnSentFilesToTheirWritersUpToTheBoundOldestDeletedFirst() throws Exception {
        ReturnedSpillFiles returned = new ReturnedSpillFiles(dir, 250);
        for (String name : new String[] {"r0-1", "r0-2", "r1-1"}) {
            Files.write(dir.resolve(name), new byte[100]);
        }
        returned.returned("r0-1");
        returned.returned("r0-2");
        assertEquals(Set.of("sent-r0-/r0-1", "sent-r0-/r0-2", "r1-1"), names());
        returned.returned("r1-1");
        assertEquals(Set.of("sent-r0-/r0-2", "sent-r1-/r1-1"), names(), "300 bytes over a bound of 250: the oldest goes");

        // Its writer takes one back: the count still holds it, so the next return deletes it, and finds nothing.
        Files.move(dir.resolve("sent-r0-/r0-2"), dir.resolve("r0-3+"));
        Files.write(dir.resolve("r1-2"), new byte[100]);
        returned.returned("r1-2");
        assertEquals(Set.of("r0-3+", "sent-r1-/r1-1", "sent-r1-/r1-2"), names());
    }

    @Test
    void aFileACheckpointLinksOrLargerThanTheBoundIsDeleted() throws Exception {
        ReturnedSpillFiles returned = new ReturnedSpillFiles(dir, 250);
        Files.write(dir.resolve("r0-1"), new byte[10]);
        Files.createDirectory(dir.resolve("checkpoint"));
        Files.createLink(dir.resolve("checkpoint").resolve("message-0"), dir.resolve("r0-1"));
        returned.returned("r0-1");
        Files.write(dir.resolve("r0-2"), new byte[300]);
        returned.returned("r0-2");
        assertEquals(Set.of("checkpoint", "checkpoint/message-0"), names());
        assertEquals(10, Files.size(dir.resolve("checkpoint").resolve("message-0")), "the checkpoint's copy stays whole");

        ReturnedSpillFiles none = new ReturnedSpillFiles(dir, 0);
        Files.write(dir.resolve("r0-3"), new byte[10]);
        none.returned("r0-3");
        none.returned("r0-4"); // gone already (the job ends): nothing to do
        assertEquals(Set.of("checkpoint", "checkpoint/message-0"), names(), "a bound of 0 deletes every file as before");
    }

    private Set<String> names() throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> !Files.isDirectory(p) || p.getFileName().toString().equals("checkpoint"))
                    .map(p -> dir.relativize(p).toString()).collect(Collectors.toSet());
        }
    }
}
