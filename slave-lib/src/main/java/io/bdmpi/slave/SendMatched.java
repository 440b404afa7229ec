package io.bdmpi.slave;

/**
 * A receive has matched the message of one of this slave's synchronous sends: the send is complete.
 *
 * @param requestId id of the synchronous send
 */
public record SendMatched(long requestId) implements Completed {
}
