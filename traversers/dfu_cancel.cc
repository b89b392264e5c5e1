// cancel (spec/traversal.md §11): release every record of a job.
#include "traversers/dfu.h"

namespace rq {

Status DfuTraverser::cancel_held(JobId jobid, const std::vector<VertexId>& held) {
    VertexId root = graph_.root(dominant());
    const VertexSchedule* root_record = store_.find(root);
    if (held.empty() || root_record == nullptr || root_record->tags.count(jobid) == 0) return cancel(jobid);
    if (x_deferred_) x_windows_.erase(jobid);
    preorder_ = postorder_ = 0;
    bool ok = true;
    for (VertexId v : held) {
        if (!store_.release_tagged(v, jobid, ok)) continue;
        ++preorder_;
        ++postorder_;
    }
    return ok ? ok_status() : make_error(Errc::kInvalid, "error removing job spans");
}

Status DfuTraverser::cancel(JobId jobid) {
    if (x_deferred_) x_windows_.erase(jobid);
    preorder_ = postorder_ = 0;
    reset_colours();
    VertexId root = graph_.root(dominant());
    const VertexSchedule* root_record = store_.find(root);
    bool ok = true;

    if (root_record == nullptr || root_record->tags.count(jobid) == 0) {
        // No tag on the root: the job was applied some other way; scan.
        for (VertexId v = 0; v < graph_.num_vertices(); ++v)
            if (VertexSchedule* record = store_.find(v)) ok = record->remove_own_span(jobid) && ok;
        return ok ? ok_status() : make_error(Errc::kInvalid, "error removing job spans");
    }

    // Tree walk through tagged vertices (iterative to bound stack depth on
    // deep graphs; children are released in out-edge order like a DFS).
    struct Frame {
        VertexId v;
        bool entered;
    };
    std::vector<Frame> stack{{root, false}};
    std::vector<VertexId> children;
    while (!stack.empty()) {
        Frame f = stack.back();
        stack.pop_back();
        VertexId u = f.v;
        if (f.entered) {
            set_colour(0, u, kBlack);
            ++postorder_;
            continue;
        }
        if (colour(0, u) != kWhite) continue;  // reached twice in a DAG
        ++preorder_;
        set_colour(0, u, kGrey);
        if (!store_.release_tagged(u, jobid, ok)) continue;
        stack.push_back({u, true});
        // Push children in reverse so they are visited in out-edge order.
        children.clear();
        for (EdgeId e : graph_.out(u))
            if (graph_.subsystem(e) == dominant()) children.push_back(graph_.target(e));
        for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back({*it, false});
    }
    return ok ? ok_status() : make_error(Errc::kInvalid, "error removing job spans");
}

}  // namespace rq
