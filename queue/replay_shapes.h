// What a replayed job asks for (docs/queue.md, "Replay on a pool machine"):
// a jobspec of SIZE single-core slots (or whole
// nodes), a jobspec file, or a pool request. Shapes are shared by every
// job of the same size, file or request text.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "pools/pool_matcher.h"
#include "pools/request.h"
#include "queue/job.h"
#include "queue/trace.h"
#include "traversers/dfu.h"

namespace rq::queue {

class JobShapes {
public:
    JobShapes(DfuTraverser& traverser, bool whole_nodes, const InputReader& read)
        : traverser_(traverser), whole_nodes_(whole_nodes), read_(read) {}

    // Gives `job` its shape (jobspec, or pool request and its own empty
    // jobspec) and estimate. Errors name the file or the request; a request
    // the machine can never serve is Errc::kUnsatisfiable.
    Status shape_by_size(QueueJob& job, int64_t size);
    Status shape_by_file(QueueJob& job, const std::string& path, int64_t runtime);
    Status shape_by_request(QueueJob& job, const std::string& request);

private:
    struct Pool {
        std::shared_ptr<const pools::Request> request;
        // One per request text: the simulator remembers failed matches per
        // jobspec within a pass, and only jobs of one request share that.
        std::shared_ptr<Jobspec> jobspec;
        Errc never = Errc::kOk;  // kUnsatisfiable: the machine can never serve it
        std::string why;
    };
    DfuTraverser& traverser_;
    bool whole_nodes_;
    const InputReader& read_;
    std::map<int64_t, std::shared_ptr<Jobspec>> by_size_;
    std::map<std::string, std::pair<std::shared_ptr<Jobspec>, double>> by_file_;
    std::map<std::string, Pool> by_request_;
    std::unique_ptr<pools::PoolMatcher> matcher_;  // satisfiability only
};

}  // namespace rq::queue
