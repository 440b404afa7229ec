/**
 * Where buffered messages wait for their receivers: {@code StoredMessage}, and the
 * {@code MessageStore} that keeps small payloads on the heap or off it (Chronicle Map). Depends on
 * no other package of the master.
 */
package io.bdmpi.master.store;
