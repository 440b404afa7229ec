package io.bdmpi.master;

import io.bdmpi.protocol.Payload;

/**
 * A message the master holds for its receiver.
 *
 * @param source sender's rank in the communicator
 * @param senderWorldRank sender's rank in COMM_WORLD (for reports)
 */
record StoredMessage(int commId, int source, int tag, int senderWorldRank, Payload payload) {

    boolean matches(int wantedCommId, int wantedSource, int wantedTag) {
        return commId == wantedCommId
                && (wantedSource == io.bdmpi.protocol.Protocol.ANY_SOURCE || wantedSource == source)
                && (wantedTag == io.bdmpi.protocol.Protocol.ANY_TAG || wantedTag == tag);
    }
}
