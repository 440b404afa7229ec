/**
 * The slaves' processes and sockets: starting slave JVMs ({@code SlaveLauncher}), the job's private
 * work directory and its janitor, and the slaves' sockets ({@code SlaveIo}, polled by the scheduler
 * thread) with each slave's {@code SlaveConnection}. What arrives goes to a {@code SlaveIo.Listener}
 * (the scheduler thread); a connection knows its slave only by world rank. May depend on
 * {@code config} only.
 */
package io.bdmpi.master.slaveio;
