// Test helpers shared by the graph export and GraphML reader tests: a graph
// as the text our writers produce, and where two texts first differ.
#pragma once

#include <sstream>
#include <string>

#include "resource/graph.h"
#include "resource/graph_export.h"

namespace rq {

inline std::string graphml_of(const ResourceGraph& g) {
    std::ostringstream out;
    write_graphml(g, out);
    return out.str();
}

inline std::string jgf_of(const ResourceGraph& g) {
    std::ostringstream out;
    write_jgf(g, out);
    return out.str();
}

// "" when equal, else the offset of the first difference and both texts
// around it (a readable failure message for long documents).
inline std::string difference(const std::string& a, const std::string& b) {
    if (a == b) return "";
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    size_t from = i < 80 ? 0 : i - 80;
    return "at " + std::to_string(i) + ":\n  " + a.substr(from, 200) + "\n  " + b.substr(from, 200);
}

}  // namespace rq
