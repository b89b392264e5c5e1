#include "state/job_r.h"

#include <sstream>
#include <unordered_set>
#include <vector>

namespace rq::state {

namespace {

bool holds(const VertexSchedule* r, int64_t job) {
    return r != nullptr && r->holds_own_span(job);
}

bool tagged(const VertexSchedule* r, int64_t job) { return r != nullptr && r->tags.count(job) != 0; }

// find's walk (traversers/find.cc FindWalk) for "jobid-alloc=J or
// jobid-reserved=J", entering only tagged vertices: an untagged subtree
// holds nothing of the job, so it would emit nothing there.
void emit_job(const Session& s, int64_t job, VertexId root, MatchWriter& writer) {
    const ResourceGraph& g = *s.graph;
    const SubsystemId dominant = s.traverser->dominant();
    struct Frame {
        VertexId vertex;
        ResourceGraph::EdgeList::iterator edge;
        EdgeId child_edge = kNoEdge;
        int64_t count = 0;
    };
    std::vector<Frame> stack;
    std::unordered_set<VertexId> visited{root};
    stack.push_back(Frame{root, g.out(root).begin()});
    while (!stack.empty()) {
        Frame& top = stack.back();
        EdgeId next = kNoEdge;
        for (const auto end = g.out(top.vertex).end(); top.edge != end; ++top.edge) {
            EdgeId e = *top.edge;
            VertexId t = g.target(e);
            if (g.subsystem(e) == dominant && !visited.count(t) && tagged(s.store->find(t), job)) {
                ++top.edge;
                next = e;
                break;
            }
        }
        if (next != kNoEdge) {
            top.child_edge = next;
            visited.insert(g.target(next));
            stack.push_back(Frame{g.target(next), g.out(g.target(next)).begin()});
            continue;
        }
        int64_t emitted = 0;
        if (holds(s.store->find(top.vertex), job) || top.count > 0) {
            VertexEmission v;
            v.vertex = top.vertex;
            v.needs = static_cast<int64_t>(g.size(top.vertex));
            v.exclusive = true;
            v.level = static_cast<int>(stack.size());
            writer.vertex(g, v);
            emitted = top.count + 1;
        }
        stack.pop_back();
        if (!stack.empty() && emitted > 0) {
            writer.edge(g, stack.back().child_edge, false);
            stack.back().count += emitted;
        }
    }
    writer.time(0, 0);
}

}  // namespace

JobR job_r(const Session& s, int64_t job) {
    JobR out;
    if (!s.is_live(job) || !s.graph || !s.traverser) return out;
    VertexId root = s.graph->root(s.traverser->dominant());
    const VertexSchedule* rr = root == kNoVertex ? nullptr : s.store->find(root);
    if (!tagged(rr, job)) return out;  // applied without tags: no R kept
    if (auto x = rr->x_spans().find(job); x != rr->x_spans().end())
        if (const Span* sp = rr->x_checker().span(x->second)) out.start = sp->start, out.end = sp->end;
    auto writer = make_writer("rv1_nosched");
    if (!writer) return out;
    emit_job(s, job, root, **writer);
    std::ostringstream text;
    if (!(*writer)->flush(text)) (*writer)->reset();
    out.r = text.str();
    return out;
}

}  // namespace rq::state
