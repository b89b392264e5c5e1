// -F env / env_export: the environment variables HyperQueue, canary and
// CTest hand to a task for an allocation, one per line.
//
//   HQ_RESOURCE_REQUEST_<NAME>   amount (every pool)
//   HQ_RESOURCE_VALUES_<NAME>    ids, comma-separated (indexed pools)
//   CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER=PCI_BUS_ID   (gpus/nvidia)
//   ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES            (gpus/amd)
//   CANARY_<SINGULAR NAME>_IDS   ids (indexed pools): cpus -> CANARY_CPU_IDS
//   CTEST_RESOURCE_GROUP_COUNT, CTEST_RESOURCE_GROUP_<i>,
//   CTEST_RESOURCE_GROUP_<i>_<TYPE> = id:X,slots:N;...   (CTest requests)
//   NAME from --env NAME=TEMPLATE with canary's %(<name>_ids)s replaced
//
// env: NAME='value' (the value single-quoted for sh, the name too when it
// has characters sh would interpret), so `eval env $(...)` hands each line
// to env as one argument. env_export: `export NAME='value'`, only for
// names sh accepts ([A-Za-z_][A-Za-z0-9_]*), for eval.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pools/pool_matcher.h"
#include "resource/match_writer.h"

namespace rq::pools {

struct EnvVar {
    std::string name;
    std::string value;
};

class EnvWriter : public MatchWriter {
public:
    explicit EnvWriter(bool export_form) : export_(export_form) {}

    // The allocation the next emission describes (a `request`); without it
    // (a `match`) the variables come from the emitted vertices by type.
    void set_allocation(const Allocation& a, const ResourceGraph& graph);
    // --env NAME=TEMPLATE of the next emission.
    void set_templates(std::vector<std::pair<std::string, std::string>> templates) { templates_ = std::move(templates); }

    void vertex(const ResourceGraph& graph, const VertexEmission& v) override;
    void edge(const ResourceGraph&, EdgeId, bool) override {}
    Status flush(std::ostream& out) override;
    void reset() override;

    // The variables of the collected allocation (for tests).
    std::vector<EnvVar> variables() const;

private:
    struct PoolIds {
        std::string name;
        bool indexed = true;
        int64_t total = 0;
        std::string request;  // HyperQueue's text of the request: "6 tight", "all"
        std::vector<std::pair<std::string, int64_t>> ids;  // (id, amount)
    };
    PoolIds& pool(const std::string& name);

    bool export_;
    bool have_allocation_ = false;
    std::vector<PoolIds> pools_;
    std::vector<std::vector<std::pair<std::string, std::pair<std::string, int64_t>>>> ctest_;  // (type, (id, slots))
    std::vector<std::pair<std::string, std::string>> templates_;
};

bool is_env_format(const std::string& format);
Result<std::unique_ptr<MatchWriter>> make_pool_writer(const std::string& format);

// 'text' for sh.
std::string shell_quote(const std::string& text);

}  // namespace rq::pools
