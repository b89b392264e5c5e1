#include "resource/writer_rv1.h"

#include <nlohmann/json.hpp>

#include "utilities/json_text.h"

namespace rq {

Rv1Writer::Rv1Writer(Scheduling scheduling) {
    if (scheduling != Scheduling::kNone)
        jgf_ = std::make_unique<JgfWriter>(scheduling == Scheduling::kJgfShorthand);
}

void Rv1Writer::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    rlite_.vertex(graph, v);
    if (jgf_) jgf_->vertex(graph, v);
}

void Rv1Writer::edge(const ResourceGraph& graph, EdgeId e, bool parent_exclusive) {
    if (jgf_) jgf_->edge(graph, e, parent_exclusive);
}

void Rv1Writer::time(int64_t start, int64_t end) {
    starttime_ = start;
    expiration_ = end;
}

void Rv1Writer::attribute(const std::string& key, const std::string& value) {
    if (key == "queue") queue_ = value;
}

Status Rv1Writer::flush(std::ostream& out) {
    if (rlite_.empty()) {
        // Nothing to print; forget the job anyway, or its vertices would
        // show up in the next job's R (the reference keeps them).
        reset();
        return ok_status();
    }

    using Json = nlohmann::ordered_json;
    Json execution = Json::object();
    execution["R_lite"] = rlite_.r_lite();
    execution["nodelist"] = Json::array({rlite_.nodelist()});
    if (Json properties = rlite_.properties(); !properties.empty()) execution["properties"] = std::move(properties);
    execution["starttime"] = starttime_;
    execution["expiration"] = expiration_;

    // The JGF part is already text; the document is assembled around it.
    std::string text = "{\"version\": 1, \"execution\": " + json_text(execution);
    if (jgf_) {
        auto scheduling = jgf_->document();
        if (!scheduling.ok()) return scheduling.error();
        if (!scheduling->empty()) text += ", \"scheduling\": " + *scheduling;
    }
    if (queue_) {
        Json attributes = {{"system", {{"scheduler", {{"queue", *queue_}}}}}};
        text += ", \"attributes\": " + json_text(attributes);
    }
    text += '}';
    out << text << '\n';
    reset();
    return ok_status();
}

void Rv1Writer::reset() {
    rlite_.reset();
    rlite_.forget_unclaimed();
    if (jgf_) jgf_->reset();
    starttime_ = 0;
    expiration_ = 0;
    queue_.reset();
}

}  // namespace rq
