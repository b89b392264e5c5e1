// grug2dot: render a GRUG recipe (not the generated graph) as Graphviz DOT
// (spec/grug2dot.md). Writes <stem>.dot in the current directory.
#include <getopt.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "resource/grug.h"

namespace {

const char* kUsage =
    "Usage: grug2dot [-m|--more] [-h|--help] <genspec>.graphml\n"
    "    Convert a GRUG resource-graph generator spec (<genspec>.graphml)\n"
    "    to AT&T GraphViz format (<genspec>.dot) in the current directory.\n"
    "    The output file only contains the basic information unless --more\n"
    "    is given.\n"
    "\n"
    "    OPTIONS:\n"
    "    -h, --help\n"
    "            Display this usage information\n"
    "\n"
    "    -m, --more\n"
    "            More information in the output file\n";

std::string stem_of(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    auto dot = name.find_last_of('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

void write_recipe_dot(const rq::Recipe& recipe, bool more, std::ostream& out) {
    out << "digraph G {\n";
    for (size_t i = 0; i < recipe.vertices.size(); ++i) {
        const auto& v = recipe.vertices[i];
        out << i << "[label=\"";
        if (more)
            out << v.subsystem << ":" << v.basename << ":" << v.size;
        else
            out << v.basename;
        out << "\"];\n";
    }
    for (size_t i = 0; i < recipe.vertices.size(); ++i) {
        for (size_t ei : recipe.out_edges[i]) {
            const auto& e = recipe.edges[ei];
            out << e.source << "->" << e.target << " [label=\"";
            if (more)
                out << e.relation << ":" << e.gen_method << ":" << e.multi_scale;
            else
                out << e.relation;
            out << "\"];\n";
        }
    }
    out << "}\n";
}

}  // namespace

int main(int argc, char** argv) {
    static const struct option long_options[] = {
        {"more", no_argument, nullptr, 'm'},
        {"help", no_argument, nullptr, 'h'},
        {nullptr, 0, nullptr, 0},
    };
    bool more = false;
    int ch;
    while ((ch = getopt_long(argc, argv, "mh", long_options, nullptr)) != -1) {
        switch (ch) {
        case 'm': more = true; break;
        case 'h': std::cerr << kUsage; return 0;
        default: std::cerr << kUsage; return 1;
        }
    }
    if (argc - optind != 1) {
        std::cerr << kUsage;
        return 1;
    }
    std::string path = argv[optind];
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    auto recipe = in ? rq::parse_grug(text.str(), path) : rq::Result<rq::Recipe>(rq::make_error(rq::Errc::kIo));
    if (!recipe) {
        std::cerr << "Error in reading " << path << "\n";
        return 255;
    }
    std::string out_path = stem_of(path) + ".dot";
    std::ofstream out(out_path);
    if (out) write_recipe_dot(*recipe, more, out);
    out.flush();
    if (!out) {
        std::cerr << "Error in writing " << out_path << "\n";
        return 255;
    }
    return 0;
}
