#include "cli/default_recipe.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rq {

namespace {

// Set by the build (CMakeLists.txt, per source file so that a new install
// prefix recompiles this file only).
#ifndef RQ_DATA_DIR
#define RQ_DATA_DIR ""
#endif
#ifndef RQ_DATA_SUBDIR
#define RQ_DATA_SUBDIR "share/resource-query"
#endif

bool is_regular_file(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// "/p/bin/resource-query" -> "/p"; "" when the path has no two levels.
std::string prefix_of(const std::string& program_path) {
    size_t program = program_path.find_last_of('/');
    if (program == std::string::npos || program == 0) return "";
    size_t bin = program_path.find_last_of('/', program - 1);
    if (bin == std::string::npos) return "";
    return program_path.substr(0, bin);
}

std::string this_program() {
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<size_t>(n)) : "";
}

}  // namespace

std::vector<std::string> default_recipe_candidates(const std::string& relative, const std::string& program_path,
                                                   const std::string& data_dir) {
    std::vector<std::string> out = {relative};
    if (!relative.empty() && relative[0] == '/') return out;
    std::string prefix = prefix_of(program_path);
    if (!program_path.empty() && program_path[0] == '/') {
        out.push_back(prefix + "/" + relative);
        out.push_back(prefix + "/" RQ_DATA_SUBDIR "/" + relative);
    }
    if (!data_dir.empty()) out.push_back(data_dir + "/" + relative);
    return out;
}

std::string find_default_recipe(const std::string& relative, const std::string& program_path,
                                const std::string& data_dir) {
    for (const std::string& candidate : default_recipe_candidates(relative, program_path, data_dir))
        if (is_regular_file(candidate)) return candidate;
    return relative;
}

std::string find_default_recipe(const std::string& relative) {
    // Whatever is at the relative path wins, a directory too (the
    // original's behaviour, error included); no readlink then.
    struct stat st;
    if (stat(relative.c_str(), &st) == 0) return relative;
    return find_default_recipe(relative, this_program(), RQ_DATA_DIR);
}

}  // namespace rq
