/**
 * What the master knows of each slave: {@code SlaveSession} (state, accounts, the request it is
 * parked on), its {@code Mailbox} (MPI matching of messages and receives), the {@code SlaveState}s
 * and their legal edges, and how reports name calls. Plain records owned by the scheduler thread,
 * shared by the engines it drives (collectives, checkpoints, snapshots). May depend on
 * {@code slaveio} (a slave's connection) and {@code store} (its buffered messages).
 */
package io.bdmpi.master.session;
