#include "queue/policy.h"

#include <limits>

namespace rq::queue {

Result<QueuePolicy> make_queue_policy(const std::string& name, int64_t queue_depth, int64_t reservation_depth) {
    if (queue_depth < 0)
        return make_error(Errc::kInvalid, "queue-depth must be 0 (all) or positive, not " + std::to_string(queue_depth));
    QueuePolicy p;
    p.name = name;
    p.queue_depth = queue_depth;
    p.stop_at_first_blocked = false;
    if (name == "fcfs") {
        p.reservation_depth = 0;
        p.stop_at_first_blocked = true;
    } else if (name == "easy") {
        p.reservation_depth = 1;
    } else if (name == "conservative") {
        p.reservation_depth = std::numeric_limits<int64_t>::max();
    } else if (name == "hybrid") {
        if (reservation_depth < 1)
            return make_error(Errc::kInvalid, "hybrid needs --reservation-depth N with N >= 1, not " +
                                                  std::to_string(reservation_depth));
        p.reservation_depth = reservation_depth;
    } else if (name == "jqm" || name == "jqm-skip") {
        p.reservation_depth = 0;
        p.jqm = true;
        p.jqm_skip = name == "jqm-skip";
    } else {
        return make_error(Errc::kInvalid,
                          "unknown queue policy '" + name + "' (fcfs, easy, conservative, hybrid, jqm, jqm-skip)");
    }
    return p;
}

}  // namespace rq::queue
