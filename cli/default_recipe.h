// Where resource-query finds its default recipe when -L is not given
// (docs/install.md): conf/default in the current directory, as the
// original looks for it; else beside the program (PREFIX/conf or
// PREFIX/share/resource-query/conf, PREFIX being the folder above the
// program's bin/: an installed tree or the build tree); else the data
// directory the build was configured to install into.
#pragma once

#include <string>
#include <vector>

namespace rq {

// The places to look, in order, for `relative` (e.g. "conf/default") when
// the program is at `program_path` and the configured data directory is
// `data_dir` ("" for none).
std::vector<std::string> default_recipe_candidates(const std::string& relative, const std::string& program_path,
                                                   const std::string& data_dir);

// The first candidate that is a regular file (program_path: this process's
// executable, data_dir: the configured one); `relative` itself when none is,
// so that the error names the path the user knows.
std::string find_default_recipe(const std::string& relative);
std::string find_default_recipe(const std::string& relative, const std::string& program_path,
                                const std::string& data_dir);

}  // namespace rq
