package io.bdmpi.protocol;

import java.util.List;

/** What a master answers to a slave's replied request. Receiving any reply means: run. */
public sealed interface MasterReply {

    /** The plain go-signal. */
    record Go() implements MasterReply {
    }

    /** Messages matched to posted receives, in the order they were matched. */
    record Deliveries(List<Delivery> deliveries) implements MasterReply {
        public Deliveries {
            deliveries = List.copyOf(deliveries);
        }
    }

    /** One message handed to a posted receive. {@code source} is the sender's rank in the communicator. */
    record Delivery(long requestId, int source, int tag, Payload payload) {
    }

    /** Whether a posted receive was withdrawn before any message matched it. */
    record CancelResult(boolean cancelled) implements MasterReply {
    }

    /** A pending message that matches a probe, or {@code found == false}. */
    record ProbeResult(boolean found, int source, int tag, long length) implements MasterReply {
        public static final ProbeResult NONE = new ProbeResult(false, 0, 0, 0);
    }
}
