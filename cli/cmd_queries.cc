// RFC 16 Allocated and Available as commands:
//   allocated [JOBID] [--summary]      what a job (or any job) holds now
//   available [--at T] [--summary]     what no job holds (now, or at T)
// The set prints in the session's -F format, like `find`, whose walk they
// use; --summary prints the count of printed vertices by type instead.
#include <iostream>
#include <map>

#include "cli/command_table.h"
#include "session/operations.h"

namespace rq {

namespace {

// Counts emitted vertices by type (for --summary).
class CountingWriter : public MatchWriter {
public:
    void vertex(const ResourceGraph& g, const VertexEmission& v) override { ++counts_[g.type_name(v.vertex)]; }
    void edge(const ResourceGraph&, EdgeId, bool) override {}
    Status flush(std::ostream& out) override {
        for (auto& [type, n] : counts_) out << "INFO: " << type << "=" << n << "\n";
        reset();
        return ok_status();
    }
    void reset() override { counts_.clear(); }

private:
    std::map<std::string, int64_t> counts_;
};

void print_set(Session& s, const std::string& criteria, bool summary, const std::string& what) {
    CountingWriter counter;
    MatchWriter& writer = summary ? static_cast<MatchWriter&>(counter) : *s.writer;
    std::string R;
    Status written;  // not ok: nothing to print in this format (an empty set)
    Status found = find_matching(s, criteria, writer, R, written);
    if (!found.ok()) {
        std::cerr << "ERROR: " << what << ": " << found.message() << std::endl;
        return;
    }
    s.out() << R;
    s.out() << "INFO: =============================\n"
            << "INFO: " << what << "\n"
            << "INFO: =============================\n";
}

bool take_flag(Args& args, const std::string& flag) {
    for (size_t i = 1; i < args.size(); ++i)
        if (args[i] == flag) {
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
            return true;
        }
    return false;
}

bool is_number(const std::string& text) {
    if (text.empty()) return false;
    for (char c : text)
        if (c < '0' || c > '9') return false;
    return text.size() < 19;
}

}  // namespace

Next cmd_allocated(Session& s, const Args& given) {
    Args args = given;
    bool summary = take_flag(args, "--summary");
    if (args.size() > 2 || (args.size() == 2 && !is_number(args[1]))) return malformed();
    if (args.size() == 1) {
        print_set(s, "sched-now=allocated", summary, "ALLOCATED=all jobs");
        return Next::kContinue;
    }
    if (!s.jobs.count(std::stoll(args[1]))) {
        std::cerr << "ERROR: nonexistent job " << args[1] << std::endl;
        return Next::kFailed;
    }
    print_set(s, "jobid-alloc=" + args[1] + " or jobid-reserved=" + args[1], summary, "ALLOCATED JOBID=" + args[1]);
    return Next::kContinue;
}

Next cmd_available(Session& s, const Args& given) {
    Args args = given;
    bool summary = take_flag(args, "--summary");
    if (args.size() == 1) {
        print_set(s, "status=up and sched-now=free", summary, "AVAILABLE AT=Now");
        return Next::kContinue;
    }
    if (args.size() != 3 || args[1] != "--at" || !is_number(args[2])) return malformed();
    print_set(s, "status=up and free-at=" + args[2], summary, "AVAILABLE AT=" + args[2]);
    return Next::kContinue;
}

}  // namespace rq
