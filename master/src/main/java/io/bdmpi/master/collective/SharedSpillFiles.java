package io.bdmpi.master.collective;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Spill files the master owns because several slaves read ranges of them (a collective member's
 * spilled data): each range handed out holds a reference, and the file is deleted when the last
 * reader has moved on. Owned by the scheduler thread; the deleting is handed to {@code delete}.
 */
public final class SharedSpillFiles {

    private final Map<String, Integer> readers = new HashMap<>();
    private final Consumer<String> delete;

    public SharedSpillFiles(Consumer<String> delete) {
        this.delete = delete;
    }

    /** One more reader of the file. */
    void retain(String fileName) {
        readers.merge(fileName, 1, Integer::sum);
    }

    /** A reader is done; the last one deletes the file. */
    public void release(String fileName) {
        Integer left = readers.merge(fileName, -1, Integer::sum);
        if (left != null && left <= 0) {
            readers.remove(fileName);
            delete.accept(fileName);
        }
    }

    /** Deletes those of these newly owned files that nobody reads. */
    void dropUnread(List<String> fileNames) {
        for (String f : fileNames) {
            if (!readers.containsKey(f)) {
                delete.accept(f);
            }
        }
    }
}
