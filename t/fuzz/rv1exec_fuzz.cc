// libFuzzer target: arbitrary bytes as an rv1exec R document, down every
// path that reads one:
//
//   1. the start-up load (-f rv1exec): a graph or an error value;
//   2. if that worked, the same R applied to that graph as an allocation
//      (`update allocate rv1exec`), released in part (`partial-cancel`)
//      and then whole (`cancel`);
//   3. the R applied to a fixed GRUG machine (`update` on a graph the R
//      did not come from) and partially cancelled there.
//
// Never a crash, leak, hang or undefined behaviour; and a failed update
// or partial cancel leaves no trace: after the final cancel nothing is
// allocated anywhere.
//
//   CC=clang CXX=clang++ cmake -S . -B build-fuzz -DRQ_FUZZ=ON ...
//   build-fuzz/bin/rv1exec_fuzz -max_total_time=60 corpus/ t/fuzz/seeds/rv1exec/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "policies/match_policy.h"
#include "resource/grug.h"
#include "resource/rv1exec_reader.h"
#include "resource/writer_simple.h"
#include "traversers/dfu.h"

namespace {

// Small enough that every input stays well inside libFuzzer's memory limit.
constexpr double kMaxVertices = 50000;

// cluster0 -> node[4] (ranks 0-3, named node0..node3) -> socket[2] -> core[4] + gpu[1]
const char* kMachine = R"(<graphml>
<key id="root" for="node" attr.name="root" attr.type="int"><default>0</default></key>
<key id="type" for="node" attr.name="type" attr.type="string"/>
<key id="basename" for="node" attr.name="basename" attr.type="string"/>
<key id="size" for="node" attr.name="size" attr.type="long"><default>1</default></key>
<key id="subsystem" for="node" attr.name="subsystem" attr.type="string"><default>containment</default></key>
<key id="e_subsystem" for="edge" attr.name="e_subsystem" attr.type="string"><default>containment</default></key>
<key id="id_scope" for="edge" attr.name="id_scope" attr.type="int"><default>0</default></key>
<key id="id_start" for="edge" attr.name="id_start" attr.type="int"><default>0</default></key>
<key id="id_stride" for="edge" attr.name="id_stride" attr.type="int"><default>1</default></key>
<key id="gen_method" for="edge" attr.name="gen_method" attr.type="string"><default>MULTIPLY</default></key>
<key id="multi_scale" for="edge" attr.name="multi_scale" attr.type="int"><default>1</default></key>
<graph>
<node id="cluster"><data key="root">1</data><data key="type">cluster</data><data key="basename">cluster</data></node>
<node id="node"><data key="type">node</data><data key="basename">node</data></node>
<node id="socket"><data key="type">socket</data><data key="basename">socket</data></node>
<node id="core"><data key="type">core</data><data key="basename">core</data></node>
<node id="gpu"><data key="type">gpu</data><data key="basename">gpu</data></node>
<edge source="cluster" target="node"><data key="multi_scale">4</data><data key="id_scope">1</data></edge>
<edge source="node" target="socket"><data key="multi_scale">2</data></edge>
<edge source="socket" target="core"><data key="multi_scale">4</data><data key="id_scope">1</data></edge>
<edge source="socket" target="gpu"><data key="multi_scale">1</data><data key="id_scope">1</data></edge>
</graph>
</graphml>
)";

struct Session {
    rq::ResourceGraph graph;
    rq::ScheduleStore store;
    std::unique_ptr<rq::MatchPolicy> policy;
    std::unique_ptr<rq::DfuTraverser> traverser;
    rq::SimpleWriter writer{false};

    bool start() {
        graph.recount_nodes_up();
        graph.types().freeze();
        auto p = rq::make_policy("first");
        if (!p) std::abort();
        policy = std::move(*p);
        rq::TraverserConfig config;
        config.subsystems = {rq::kContainment};
        auto t = rq::DfuTraverser::create(graph, store, *policy, config);
        if (!t) return false;  // e.g. no containment root
        traverser = std::move(*t);
        return true;
    }

    // update allocate rv1exec, partial-cancel, cancel: nothing allocated at the end.
    void exercise(std::string_view r) {
        std::string discard;
        rq::MatchResult applied = traverser->apply("rv1exec", r, 1, 0, 3600, writer);
        writer.reset();
        traverser->clear_message();
        if (applied.ok()) {
            (void)traverser->partial_cancel(1, "rv1exec", r);
            traverser->clear_message();
        }
        (void)traverser->cancel(1);
        traverser->clear_message();
        rq::VertexId root = graph.root(rq::kContainment);
        if (root == rq::kNoVertex) return;
        const rq::VertexSchedule* record = store.find(root);
        if (record != nullptr && !record->tags.empty()) std::abort();  // a job survived its cancel
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);

    Session loaded;
    if (rq::read_rv1exec(text, loaded.graph, kMaxVertices).ok() && loaded.start()) loaded.exercise(text);

    static const rq::Recipe machine = [] {
        auto recipe = rq::parse_grug(kMachine, "machine");
        if (!recipe) std::abort();
        return *recipe;
    }();
    Session fixed;
    if (!rq::load_grug(machine, fixed.graph).ok() || !fixed.start()) std::abort();
    fixed.exercise(text);
    return 0;
}
