/**
 * The {@code bdmpiexec} launcher: its command line and config file
 * ({@link io.bdmpi.launcher.LaunchOptions}), and the start of a job on one node (a master in this
 * JVM) or on several ({@link io.bdmpi.launcher.MultiNodeLaunch}, one master per node through
 * {@code mpiexec}).
 */
package io.bdmpi.launcher;
