// grug2dot: render a GRUG recipe (not the generated graph) as Graphviz DOT
// (spec/grug2dot.md). Writes <stem>.dot in the current directory, or the
// -o file; never replaces an existing file unless --force.
//
// A front end in its own folder, beside cli/ (resource-query) and reapi/
// (libreapi_cli), rather than inside cli/: it is a separate program that
// shares nothing with the REPL (no session, no options table, no
// commands) and reads only the recipe parser (resource/grug.h). In cli/ it
// would need its own exclusion from the core library's glob and would blur
// what cli/ is; here the folder is the program (docs/design.md "Rooms and
// their doors").
#include <fcntl.h>
#include <getopt.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fstream>
#include <iostream>
#include <sstream>

#include "resource/grug.h"
#include "utilities/dot_text.h"

namespace {

const char* kUsage =
    "Usage: grug2dot [-m|--more] [-o FILE] [--force] [-h|--help] <genspec>.graphml\n"
    "    Convert a GRUG resource-graph generator spec (<genspec>.graphml)\n"
    "    to AT&T GraphViz format (<genspec>.dot) in the current directory.\n"
    "    The output file only contains the basic information unless --more\n"
    "    is given. An existing output file is never replaced unless --force\n"
    "    is given.\n"
    "\n"
    "    OPTIONS:\n"
    "    -h, --help\n"
    "            Display this usage information\n"
    "\n"
    "    -m, --more\n"
    "            More information in the output file\n"
    "\n"
    "    -o, --output=FILE\n"
    "            Write FILE instead of <genspec>.dot (- for standard output)\n"
    "\n"
    "    --force\n"
    "            Replace the output file if it exists\n";

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
            out << rq::dot_escaped(v.subsystem) << ":" << rq::dot_escaped(v.basename) << ":" << v.size;
        else
            out << rq::dot_escaped(v.basename);
        out << "\"];\n";
    }
    for (size_t i = 0; i < recipe.vertices.size(); ++i) {
        for (size_t ei : recipe.out_edges[i]) {
            const auto& e = recipe.edges[ei];
            out << e.source << "->" << e.target << " [label=\"";
            if (more)
                out << rq::dot_escaped(e.relation) << ":" << rq::dot_escaped(e.gen_method) << ":" << e.multi_scale;
            else
                out << rq::dot_escaped(e.relation);
            out << "\"];\n";
        }
    }
    out << "}\n";
}

// Writes `text` to `path` ("-": stdout). Without `force` an existing file
// is left alone (O_EXCL: no window between the check and the creation).
bool write_output(const std::string& path, const std::string& text, bool force, std::string& problem) {
    if (path == "-") {
        std::cout << text;
        std::cout.flush();
        if (!std::cout) problem = "standard output is not writable";
        return static_cast<bool>(std::cout);
    }
    int flags = O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL);
    int fd = open(path.c_str(), flags, 0666);
    if (fd < 0) {
        problem = errno == EEXIST ? "it already exists (--force replaces it)" : std::strerror(errno);
        return false;
    }
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            problem = std::strerror(errno);
            close(fd);
            return false;
        }
        done += static_cast<size_t>(n);
    }
    if (close(fd) != 0) {
        problem = std::strerror(errno);
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    enum { kForce = 256 };
    static const struct option long_options[] = {
        {"more", no_argument, nullptr, 'm'},
        {"help", no_argument, nullptr, 'h'},
        {"output", required_argument, nullptr, 'o'},
        {"force", no_argument, nullptr, kForce},
        {nullptr, 0, nullptr, 0},
    };
    bool more = false;
    bool force = false;
    std::string out_path;
    int ch;
    while ((ch = getopt_long(argc, argv, "mho:", long_options, nullptr)) != -1) {
        switch (ch) {
        case 'm': more = true; break;
        case 'o': out_path = optarg; break;
        case kForce: force = true; break;
        case 'h': std::cerr << kUsage; return 0;
        default: std::cerr << kUsage; return 1;
        }
    }
    if (argc - optind != 1) {
        std::cerr << kUsage;
        return 1;
    }
    std::string path = argv[optind];
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    int open_error = errno;
    std::ostringstream text;
    text << in.rdbuf();
    auto recipe = in ? rq::parse_grug(text.str(), path) : rq::Result<rq::Recipe>(rq::make_error(rq::Errc::kIo));
    if (!recipe) {
        std::cerr << "Error in reading " << path << "\n";
        std::string why = in ? recipe.message() : open_error != 0 ? std::strerror(open_error) : "cannot read it";
        if (!why.empty()) std::cerr << "  " << why << "\n";
        return 255;
    }
    if (out_path.empty()) out_path = stem_of(path) + ".dot";
    std::ostringstream dot;
    write_recipe_dot(*recipe, more, dot);
    std::string problem;
    if (!write_output(out_path, dot.str(), force, problem)) {
        std::cerr << "Error in writing " << out_path << "\n  " << problem << "\n";
        return 255;
    }
    return 0;
}
