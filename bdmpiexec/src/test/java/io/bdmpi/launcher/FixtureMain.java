package io.bdmpi.launcher;

/** A program for the launcher tests: found on the test class path. */
public final class FixtureMain {
    private FixtureMain() {
    }

    public static void main(String[] args) {
    }
}
