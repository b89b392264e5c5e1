// set-property, get-property, set-status, get-status (spec/cli.md
// §5.9-§5.12, traversal.md §15).
#include <iostream>

#include "cli/command_table.h"
#include "session/operations.h"

namespace rq {

namespace {

// The vertices at `path`; when there are none, says so in the original's
// words (`couldnt` for set-property's spelling) and returns nothing.
std::vector<VertexId> vertices_at(Session& s, const std::string& path, bool couldnt = false) {
    auto vertices = s.graph->at_path(path);
    if (vertices.empty())
        s.out() << (couldnt ? "Couldn't" : "Could not") << " find path " << path << " in resource graph.\n";
    return vertices;
}

}  // namespace

Next cmd_set_property(Session& s, const Args& args) {
    if (args.size() != 3) return malformed();
    const std::string& path = args[1];
    const std::string& kv = args[2];
    auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq == kv.size() - 1) {
        s.out() << "Incorrect input format. \n"
                << "Please use `set-property <resource> PROPERTY=VALUE`.\n";
        return Next::kFailed;
    }
    auto vertices = vertices_at(s, path, true);
    if (vertices.empty()) return Next::kFailed;
    for (VertexId v : vertices) s.graph->set_property(v, kv.substr(0, eq), kv.substr(eq + 1));
    return Next::kContinue;
}

Next cmd_get_property(Session& s, const Args& args) {
    if (args.size() != 2) return malformed();
    const std::string& path = args[1];
    auto vertices = vertices_at(s, path);
    if (vertices.empty()) return Next::kFailed;
    for (VertexId v : vertices) {
        const PropertyMap* props = s.graph->properties(v);
        if (props == nullptr) {
            s.out() << "No properties were found for " << path << ".\n";
            continue;
        }
        for (auto& [key, value] : *props) s.out() << key << "=" << value << "\n";
    }
    return Next::kContinue;
}

Next cmd_set_status(Session& s, const Args& args) {
    if (args.size() != 3) return malformed();
    const std::string& path = args[1];
    if (vertices_at(s, path).empty()) return Next::kFailed;
    if (args[2] != "up" && args[2] != "down") {
        std::cerr << "ERROR: unrecognized status" << std::endl;
        return Next::kFailed;
    }
    (void)set_path_status(s, path, args[2] == "up");  // the path exists
    return Next::kContinue;
}

Next cmd_get_status(Session& s, const Args& args) {
    if (args.size() != 2) return malformed();
    const std::string& path = args[1];
    auto vertices = vertices_at(s, path);
    if (vertices.empty()) return Next::kFailed;
    for (VertexId v : vertices) s.out() << path << (s.graph->is_up(v) ? " is up" : " is down") << "\n";
    return Next::kContinue;
}

}  // namespace rq
