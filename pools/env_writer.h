// -F env / env_export: the environment variables the request's own tool
// hands to a task for an allocation, one per line (docs/pools.md "-F env"):
//
//   HyperQueue  HQ_RESOURCE_REQUEST_<NAME>, HQ_RESOURCE_VALUES_<NAME> (indexed
//               pools), HQ_CPUS + OMP_NUM_THREADS (cpus)
//   canary      CANARY_<SINGULAR NAME>_IDS: one id per slot taken
//   CTest       CTEST_RESOURCE_GROUP_COUNT, CTEST_RESOURCE_GROUP_<i>,
//               CTEST_RESOURCE_GROUP_<i>_<TYPE> = id:X,slots:N;...
//   every tool  CUDA_VISIBLE_DEVICES (+ CUDA_DEVICE_ORDER under HyperQueue)
//               for NVIDIA gpus, ROCR_VISIBLE_DEVICES + HIP_VISIBLE_DEVICES
//               for AMD ones; NAME from --env NAME=TEMPLATE with canary's
//               %(<name>_ids)s filled
//
// Lines starting with `#` are comments for people (sh skips them under
// eval): `# worker NAME` where the graph has several workers, and
// `# reserved at T` instead of the variables of a job that has not started
// (its devices may be busy now). A `find` prints nothing: it allocates
// nothing.
//
// env: NAME='value' (the value single-quoted for sh, the name too when it
// has characters sh would interpret), so `eval env $(...)` hands each line
// to env as one argument. env_export: `export NAME='value'`, only for
// names sh accepts ([A-Za-z_][A-Za-z0-9_]*), for eval.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pools/pool_matcher.h"
#include "pools/request.h"
#include "resource/match_writer.h"

namespace rq::pools {

struct EnvVar {
    std::string name;
    std::string value;
};

class EnvWriter : public MatchWriter {
public:
    explicit EnvWriter(bool export_form) : export_(export_form) {}

    // The dialect of a `match` (the session's); a request names its own.
    void set_dialect(Dialect d) { match_dialect_ = d; }
    // The allocation the next emission describes (a `request`) in the
    // variables of `dialect`; `worker` non-empty prints `# worker NAME`.
    // Without it (a `match`) the variables come from the emitted vertices
    // by type.
    void set_allocation(const Allocation& a, const ResourceGraph& graph, Dialect dialect,
                        const std::string& worker = "");
    // --env NAME=TEMPLATE of the next emission.
    void set_templates(std::vector<std::pair<std::string, std::string>> templates) { templates_ = std::move(templates); }

    // A find's time is (0, 0); a match's starts at its start.
    void time(int64_t start, int64_t end) override;
    void vertex(const ResourceGraph& graph, const VertexEmission& v) override;
    void edge(const ResourceGraph&, EdgeId, bool) override {}
    Status flush(std::ostream& out) override;
    void reset() override;

    // The variables of the collected allocation (for tests).
    std::vector<EnvVar> variables() const;
    // The comment lines printed before them, without the newlines.
    std::vector<std::string> comments() const;

private:
    struct PoolIds {
        std::string name;
        bool indexed = true;
        int64_t total = 0;
        std::string request;  // HyperQueue's text of the request: "6 tight", "all"
        std::vector<std::pair<std::string, int64_t>> ids;  // (id, amount)
    };
    PoolIds& pool(const std::string& name);
    void hq_variables(std::vector<EnvVar>& vars) const;
    void canary_variables(std::vector<EnvVar>& vars) const;
    void ctest_variables(std::vector<EnvVar>& vars) const;
    void gpu_variables(std::vector<EnvVar>& vars) const;
    std::string canary_ids(const PoolIds& p) const;

    bool export_;
    bool have_allocation_ = false;
    bool find_ = false;
    int64_t reserved_at_ = 0;
    Dialect match_dialect_ = Dialect::kHq;
    Dialect dialect_ = Dialect::kHq;
    std::string worker_;
    std::vector<std::string> matched_workers_;  // a match's nodes, where the graph has several
    std::vector<PoolIds> pools_;
    std::vector<std::vector<std::pair<std::string, std::pair<std::string, int64_t>>>> ctest_;  // (type, (id, slots))
    std::vector<std::pair<std::string, std::string>> templates_;
};

bool is_env_format(const std::string& format);
Result<std::unique_ptr<MatchWriter>> make_pool_writer(const std::string& format);

// Checks --env NAME=TEMPLATE: every `%(` starts a placeholder
// `%(<name>_ids)s` whose <name> (or <name>s) is a pool `is_pool` knows.
// The error names the placeholder.
Status check_placeholders(const std::string& name, const std::string& text,
                          const std::function<bool(const std::string&)>& is_pool);

// 'text' for sh.
std::string shell_quote(const std::string& text);

}  // namespace rq::pools
