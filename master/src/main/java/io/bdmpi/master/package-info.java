/**
 * The node master: one per node, it spawns the node's slave JVMs, lets at most {@code nrunning} of
 * them run, buffers their messages and cleans up after them. This package is the composition root
 * only: {@link io.bdmpi.master.NodeMaster} wires the other packages together and runs a job's
 * lifecycle, and {@code InternodeLink} joins the node's scheduler to the other nodes' masters.
 * Every other package of the master sits below it; {@code PackageCyclesTest} checks that no
 * package depends on another that depends back on it.
 *
 * <h2>Packages, from the bottom up</h2>
 * <pre>
 *   internode, store, memory           none of the master's packages
 *   config     settings                internode, memory
 *   slaveio    processes and sockets   config
 *   session    the record of a slave   slaveio, store
 *   observe    stats, timeline, UI     session, config
 *   control    side channel to bdmpiexec  observe
 *   checkpoint                         session, store, slaveio
 *   collective                         session, checkpoint, internode
 *   scheduler  the single writer       all of the above
 *   (root)     wiring                  all
 * </pre>
 * A lower package that must reach a higher one gets a small interface it owns, implemented or
 * wired above it: {@code SlaveIo.Listener}, {@code Collectives.Listener} and
 * {@code Collectives.RemoteStarts}, {@code SlaveSession.OpenCollective}, and plain
 * {@code Consumer}s for the samplers and the progress display.
 *
 * <h2>Threads, and who owns what (the single-writer rule)</h2>
 * <ul>
 *   <li><b>bdmpi-scheduler</b> ({@code SchedulerThread}): owns all master state, without locks: the
 *       slaves' {@code SlaveSession}s (states, mailboxes, accounts), the communicators and
 *       collectives in progress, the shared spill files, the MPI-IO
 *       shared file pointers its node keeps, the window locks of its node's window members, the
 *       message store, the checkpoints,
 *       {@code -nr auto}'s {@code RunningController}, the deadlock detection over nodes and the
 *       timeline's recording. It applies other nodes' one-sided operations to its node's window
 *       files ({@code WindowTargets}) between two events, so that an origin's operations and its
 *       unlock are applied in the order they came, and a lock grant never races an operation. It
 *       also owns the slaves' sockets ({@code SlaveIo}): it waits in their
 *       selector, accepts connections, reads and decodes requests and handles each at once, and
 *       writes the replies (finishing those the socket did not take whole when it is writable
 *       again), so a slave switch involves no other thread. Every other thread talks to it only by
 *       publishing a {@code MasterEvent} to its LMAX Disruptor ring, whose publication wakes the
 *       selector.</li>
 *   <li><b>process reapers</b> (the JDK's {@code Process.onExit}, one per slave): a slave's exit
 *       ({@code ProcessExited}, and before it an OOM kill's {@code StopRequested}).</li>
 *   <li><b>bdmpi-slave-starter</b>s, while the slaves start: each starts slave JVMs
 *       ({@code SlaveLauncher.startAll}), and hands them back to the launcher's thread.</li>
 *   <li><b>bdmpi-mpi-pump</b> (several nodes): drives MPI and makes every call but two kinds: the
 *       scheduler thread posts its own sends, and takes the small messages that arrive while it
 *       spins ({@code Pump.send}, {@code Pump.pollControl}, under the pump's lock, which only the
 *       pump waits for; {@code MPI_THREAD_SERIALIZED}). The receiving half of
 *       {@code Internode} runs on it (or on the scheduler thread, then) and publishes what the other masters send ({@code RemoteArrived},
 *       {@code RemoteStarted}, {@code RemoteSendMatched}, {@code RemotePointerRequest},
 *       {@code RemotePointerAnswer}, {@code RemoteWindow}, {@code SpillShipped}, {@code PeerState}, {@code PeerFailed}, and
 *       the steps of a checkpoint's commit: {@code CheckpointPartWritten},
 *       {@code CheckpointCommitted}, and with node-local checkpoint directories the files of a
 *       buddy copy, {@code BuddyFileArrived}, and {@code BuddyCopied}) through {@code InternodeLink}. The scheduler thread hands it sends
 *       through queues; <b>bdmpi-chunk-writer</b> writes the chunks it receives to disk.</li>
 *   <li><b>bdmpi-heartbeat</b> and <b>bdmpi-launcher-reader</b> (several nodes): the side channel
 *       to bdmpiexec ({@code LauncherLink}), independent of MPI and of the scheduler: a heartbeat
 *       with the node's latest {@code JobSnapshot} (asked for with a non-blocking publish) every
 *       250 ms; a lost node named by bdmpiexec becomes a {@code PeerFailed} and counts as ended in
 *       {@code InternodeLink}, a lost launcher a {@code StopRequested}.</li>
 *   <li><b>bdmpi-orphan-end</b> (several nodes, once bdmpiexec is lost or was never reached):
 *       sleeps {@code LauncherLink.ORPHAN_LIMIT_MS}, then ends the process (halt) should it still
 *       run; owns nothing.</li>
 *   <li><b>bdmpi-ticker</b> (several nodes, or a {@code --quantum}): a {@code Tick} every
 *       {@code TICK_MS}, on which the scheduler stops the slaves that ran past the quantum.</li>
 *   <li><b>bdmpi-memory</b> ({@code -nr auto}): a {@code MemorySampled} reading every 250 ms.</li>
 *   <li><b>bdmpi-residency</b> (policy RESIDENT): measures each slave's resident fraction into an
 *       atomic array that the resume policy reads on the scheduler thread: numbers, not state.</li>
 *   <li><b>bdmpi-read-ahead</b>: the scheduler thread names the slave that resumes next through an
 *       atomic reference; this thread asks the kernel to read that slave's files in.</li>
 *   <li><b>bdmpi-spill-deleter</b>: deletes the spill files the scheduler thread hands it.</li>
 *   <li><b>bdmpi-progress</b> ({@code --progress}, status line): publishes {@code SnapshotRequested}
 *       and formats the immutable {@code JobSnapshot} it gets back; in status-line mode
 *       <b>bdmpi-stdout-PID</b> and <b>bdmpi-stderr-PID</b> forward each slave's output, under the
 *       terminal's lock.</li>
 *   <li><b>bdmpi-timeline-writer</b> ({@code --trace}, {@code --report}): appends the timeline's
 *       full buffers to its spool file, so the scheduler thread never waits for the disk.</li>
 *   <li><b>bdmpi-shutdown</b>, the JVM's shutdown hook (SIGINT, SIGTERM): publishes
 *       {@code StopRequested} and waits for the cleanup.</li>
 *   <li>the <b>launcher's thread</b>, in {@code NodeMaster.run}: restarting from node-local
 *       checkpoint directories, first agrees with the other masters on the parts each lacks and
 *       fetches them ({@code RestartStaging}, before any attempt: it shares nothing with the
 *       scheduler, and its messages go on tags no inbox takes); then wires an attempt, waits for its
 *       outcome, asks for the statistics ({@code StatsRequested}), and writes the statistics, trace
 *       and report once the scheduler has finished.</li>
 * </ul>
 */
package io.bdmpi.master;
