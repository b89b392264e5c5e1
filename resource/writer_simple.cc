#include "resource/writer_simple.h"

#include <charconv>

namespace rq {

std::string level_prefix(int level) {
    std::string prefix(6, ' ');
    for (int i = 0; i < level; ++i) prefix += "---";
    return prefix;
}

void SimpleWriter::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    starts_.push_back(text_.size());
    text_.append(6, ' ');
    for (int i = 0; i < v.level; ++i) text_ += "---";
    text_ += graph.name(v.vertex);
    text_ += '[';
    char digits[24];
    auto end = std::to_chars(digits, digits + sizeof digits, v.needs).ptr;
    text_.append(digits, end);
    text_ += ':';
    if (pretty_)
        text_ += v.exclusive ? "exclusive" : "shared";
    else
        text_ += v.exclusive ? 'x' : 's';
    text_ += "]\n";
}

Status SimpleWriter::flush(std::ostream& out) {
    if (pretty_) {
        size_t end = text_.size();
        for (auto it = starts_.rbegin(); it != starts_.rend(); ++it) {
            out.write(text_.data() + *it, static_cast<std::streamsize>(end - *it));
            end = *it;
        }
    } else {
        out.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    }
    reset();
    return ok_status();
}

}  // namespace rq
