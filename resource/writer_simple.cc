#include "resource/writer_simple.h"

namespace rq {

std::string level_prefix(int level) {
    std::string prefix(6, ' ');
    for (int i = 0; i < level; ++i) prefix += "---";
    return prefix;
}

void SimpleWriter::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    std::string line = level_prefix(v.level);
    line += graph.name(v.vertex);
    line += '[';
    line += std::to_string(v.needs);
    line += ':';
    if (pretty_)
        line += v.exclusive ? "exclusive" : "shared";
    else
        line += v.exclusive ? "x" : "s";
    line += "]\n";
    lines_.push_back(std::move(line));
}

Status SimpleWriter::flush(std::ostream& out) {
    if (pretty_)
        for (auto it = lines_.rbegin(); it != lines_.rend(); ++it) out << *it;
    else
        for (auto& line : lines_) out << line;
    lines_.clear();
    return ok_status();
}

}  // namespace rq
